import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { repoRoot } from '../test-support/paths';
import { type Figure, machine, ratio, writeResult } from './lib/results';

/**
 * Size of the page SDK's one-file <script> build beside @mcp-b/global's IIFE (the script MCP-B
 * tells sites to add). Bar (docs/requirements.md#bars): a fifth of its size or smaller. Build first:
 * `node scripts/build.mjs`.
 */
const files = {
  tabmcp: join(repoRoot, 'packages/page/dist/tabmcp-page.js'),
  mcpbGlobal: join(repoRoot, 'node_modules/@mcp-b/global/dist/index.iife.js'),
  mcpbPolyfill: join(repoRoot, 'node_modules/@mcp-b/webmcp-polyfill/dist/index.iife.js'),
};

function measure(file: string) {
  const bytes = readFileSync(file);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes).length,
  };
}

const ours = measure(files.tabmcp);
const global = measure(files.mcpbGlobal);
const polyfill = measure(files.mcpbPolyfill);
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

for (const kind of ['raw', 'gzip', 'brotli'] as const) {
  process.stdout.write(
    `${kind.padEnd(6)} tabmcp-page.js ${kib(ours[kind]).padStart(10)}   @mcp-b/global IIFE ${kib(global[kind]).padStart(10)}   ratio ${ratio(ours[kind], global[kind])}   (webmcp-polyfill IIFE alone ${kib(polyfill[kind])})\n`,
  );
}
const pass = ours.raw * 5 <= global.raw && ours.gzip * 5 <= global.gzip;
process.stdout.write(`bar: at most a fifth of @mcp-b/global (raw and gzip): ${pass ? 'PASS' : 'FAIL'}\n`);
writeResult('page-size', {
  machine: machine(),
  bytes: { tabmcp: ours, mcpbGlobal: global, mcpbWebmcpPolyfill: polyfill },
  ratio: {
    raw: ratio(ours.raw, global.raw),
    gzip: ratio(ours.gzip, global.gzip),
    brotli: ratio(ours.brotli, global.brotli),
  },
  bar: 'tabmcp-page.js at most 1/5 of @mcp-b/global IIFE, raw and gzip',
  pass,
  figures: (['raw', 'gzip'] as const).map(
    (kind): Figure => ({
      name: `page SDK <script>, ${kind}`,
      value: Math.round((ours[kind] / 1024) * 10) / 10,
      unit: 'KiB',
      beside: { label: '@mcp-b/global IIFE', value: Math.round((global[kind] / 1024) * 10) / 10 },
      bar: '≤ 1/5 of @mcp-b/global',
      pass: ours[kind] * 5 <= global[kind],
      meaning: `ratio ${ratio(ours[kind], global[kind])}: what a site adds to its pages to publish tools`,
    }),
  ),
});
if (!pass) process.exitCode = 1;
