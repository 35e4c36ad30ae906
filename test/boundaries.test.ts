// The architecture's rules are checks, not conventions: a file that crosses a boundary must fail
// the project's own typecheck or lint. Each case drops one offending file into a guarded folder; the
// probes are checked together (one tsc per package, one biome run for all) and removed again, and each
// case then finds its own file's error in that output. One run per tool, not one per case, is what
// keeps this file short (it was the slowest unit file).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);

interface Check {
  tool: 'tsc' | 'biome';
  /** For tsc: the package whose own tsconfig must refuse the file. */
  project?: string;
}

/** Runs a check and returns its whole output; a check that fails exits non-zero, which is expected here. */
async function output(command: string, args: string[]): Promise<{ ok: boolean; text: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [command, ...args], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true, text: `${stdout}${stderr}` };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, text: `${stdout}${stderr}` };
  }
}

const tsc = (project: string) =>
  output(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', join('packages', project, 'tsconfig.json')]);

interface BiomeReport {
  diagnostics: Array<{ message: string; location: { path: string } }>;
}

/** biome's JSON reporter (biome is pinned exactly in package.json), so each diagnostic names its file. */
async function biome(files: string[]): Promise<BiomeReport> {
  const { text } = await output(join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), [
    'lint',
    '--max-diagnostics=200',
    '--reporter=json',
    ...files,
  ]);
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  return JSON.parse(json) as BiomeReport;
}

const cases: Array<{ what: string; folder: string; source: string; check: Check; expect: RegExp }> = [
  {
    what: 'chrome.* in the hub',
    folder: 'packages/hub/src',
    source: 'export const tabs = chrome.tabs.query({});\n',
    check: { tool: 'tsc', project: 'hub' },
    expect: /Cannot find name 'chrome'/,
  },
  {
    what: 'a Node global in the hub',
    folder: 'packages/hub/src',
    source: 'export const pid = process.pid;\n',
    check: { tool: 'tsc', project: 'hub' },
    expect: /Cannot find name 'process'/,
  },
  {
    what: 'node:fs in the hub',
    folder: 'packages/hub/src',
    source: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    check: { tool: 'biome' },
    expect: /No Node built-ins in a core/,
  },
  {
    what: 'the DOM in protocol',
    folder: 'packages/protocol/src',
    source: 'export const title = document.title;\n',
    check: { tool: 'tsc', project: 'protocol' },
    expect: /Cannot find name 'document'/,
  },
  {
    what: 'ws in protocol',
    folder: 'packages/protocol/src',
    source: "import { WebSocketServer } from 'ws';\nexport const server = WebSocketServer;\n",
    check: { tool: 'biome' },
    expect: /No sockets in a core/,
  },
  {
    what: 'ws in the server core',
    folder: 'packages/server/src/core',
    source: "import { WebSocketServer } from 'ws';\nexport const server = WebSocketServer;\n",
    check: { tool: 'biome' },
    expect: /No sockets in a core/,
  },
  {
    what: 'an adapter in the server core',
    folder: 'packages/server/src/core',
    source: "import { startLinkServer } from '../link/link-endpoint';\nexport const start = startLinkServer;\n",
    check: { tool: 'biome' },
    expect: /server core never touches a socket/,
  },
  {
    what: 'node:net in the proxy core',
    folder: 'packages/proxy/src/core',
    source: "import { createServer } from 'node:net';\nexport const listen = createServer;\n",
    check: { tool: 'biome' },
    expect: /No Node built-ins in a core/,
  },
  {
    what: 'an e2e test importing a benchmark helper',
    folder: 'e2e',
    source: "export * from '../bench/lib/stats';\n",
    check: { tool: 'biome' },
    expect: /share helpers through test-support/,
  },
  {
    what: "a package's test importing another package's tests",
    folder: 'packages/server/test',
    source: "export * from '../../proxy/test/core.test';\n",
    check: { tool: 'biome' },
    expect: /share helpers through test-support/,
  },
  {
    what: 'the hub importing the extension',
    folder: 'packages/hub/src',
    source: "export * from '@tabmcp/extension';\n",
    check: { tool: 'biome' },
    expect: /hub may import only @tabmcp\/protocol/,
  },
  {
    what: 'zod in the page SDK',
    folder: 'packages/page/src',
    source: "import { z } from 'zod';\nexport const schema = z.string();\n",
    check: { tool: 'biome' },
    expect: /page bundle stays zod-free/,
  },
];

describe('architecture boundaries', () => {
  const probes = cases.map((kase, index) => ({
    ...kase,
    file: join(kase.folder, `zz-boundary-probe-${process.pid}-${index}.ts`),
  }));
  const removeProbes = () => {
    for (const { file } of probes) rmSync(join(root, file), { force: true });
  };
  /** What each probe's check said about that probe's own file. */
  const findings = new Map<string, { refused: boolean; output: string }>();

  before(async () => {
    for (const { file, source } of probes) writeFileSync(join(root, file), source);
    try {
      const byBiome = probes.filter(({ check }) => check.tool === 'biome');
      const byTsc = probes.filter(({ check }) => check.tool === 'tsc');
      const projects = [...new Set(byTsc.map(({ check }) => check.project ?? ''))];
      const [report, ...tscRuns] = await Promise.all([
        biome(byBiome.map(({ file }) => file)),
        ...projects.map((project) => tsc(project)),
      ]);
      for (const { file } of byBiome) {
        const own = report.diagnostics.filter((diagnostic) => diagnostic.location.path === file);
        findings.set(file, { refused: own.length > 0, output: own.map(({ message }) => message).join('\n') });
      }
      for (const { file, check } of byTsc) {
        const run = tscRuns[projects.indexOf(check.project ?? '')];
        const own = (run?.text ?? '').split('\n').filter((line) => line.startsWith(file));
        findings.set(file, { refused: run?.ok === false && own.length > 0, output: own.join('\n') });
      }
    } finally {
      removeProbes();
    }
  });
  after(removeProbes);

  for (const { what, check, expect, file } of probes) {
    it(`refuses ${what}`, () => {
      const finding = findings.get(file);
      assert.ok(finding, 'the check ran');
      assert.equal(finding.refused, true, `${check.tool} accepted ${what}:\n${finding.output}`);
      assert.match(finding.output, expect);
    });
  }

  it('the page bundle pulls in neither zod nor a Node built-in', async () => {
    for (const entry of ['script.ts', 'index.ts']) {
      const { metafile } = await build({
        entryPoints: [join(root, 'packages/page/src', entry)],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'browser',
        format: 'esm',
        logLevel: 'silent',
      });
      const inputs = Object.keys(metafile.inputs);
      assert.ok(inputs.length > 3, `the bundle of ${entry} has inputs`);
      assert.deepEqual(
        inputs.filter((input) => input.includes('node_modules/zod') || input.startsWith('node:')),
        [],
        `${entry} must stay zod-free and Node-free`,
      );
    }
  });

  // What runs in the browser at every page load (content script) or every worker start (background,
  // docs/architecture.md, "zod in the extension"), and what opens at a click (popup, options).
  const browserEntries = [
    { entry: 'content/content-script.ts', format: 'iife' },
    { entry: 'background/index.ts', format: 'esm' },
    { entry: 'popup/popup.ts', format: 'iife' },
    { entry: 'options/options.ts', format: 'iife' },
  ] as const;
  for (const { entry, format } of browserEntries) {
    it(`${entry} carries zod/mini, not zod classic, and no locale but English`, async () => {
      const { metafile } = await build({
        entryPoints: [join(root, 'packages/extension/src', entry)],
        bundle: true,
        write: false,
        metafile: true,
        minify: true,
        outdir: join(root, '.tmp/boundaries-extension'),
        platform: 'browser',
        format,
        conditions: ['tabmcp-source'],
        logLevel: 'silent',
      });
      const [output] = Object.values(metafile.outputs);
      assert.ok(output, `${entry} was bundled`);
      const zod = Object.entries(output.inputs)
        .filter(([input, { bytesInOutput }]) => input.includes('node_modules/zod/') && bytesInOutput > 0)
        .map(([input]) => input.slice(input.indexOf('node_modules/zod/') + 'node_modules/zod/'.length));
      assert.ok(
        zod.some((input) => input.startsWith('v4/mini/')),
        `${entry} uses zod/mini`,
      );
      assert.deepEqual(
        zod.filter(
          (input) =>
            input.startsWith('v4/classic/') || (input.startsWith('v4/locales/') && input !== 'v4/locales/en.js'),
        ),
        [],
      );
    });
  }
});
