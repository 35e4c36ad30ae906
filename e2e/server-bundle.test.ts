import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { serverBin } from '../test-support/paths';

const dist = dirname(serverBin);

/**
 * The chunks of the built tabmcp that a default stdio run loads: the entry, the chunk it imports
 * once the heap flags are set, and everything those import statically. What loads on demand
 * (`import()` past the entry: --http, --proxy) is left out.
 */
function startupChunks(): Map<string, string> {
  const loaded = new Map<string, string>();
  const visit = (file: string, followDynamic: boolean) => {
    if (loaded.has(file)) return;
    const text = readFileSync(join(dist, file), 'utf8');
    loaded.set(file, text);
    const imports = followDynamic
      ? /(?:from|import)\s*\(?\s*["']\.\/([\w-]+\.js)["']/g
      : /(?:from|import)\s*["']\.\/([\w-]+\.js)["']/g;
    for (const match of text.matchAll(imports)) if (match[1]) visit(match[1], false);
  };
  visit('tabmcp.js', true);
  return loaded;
}

describe('the built tabmcp bundle (node scripts/build.mjs)', () => {
  it('loads no Ajv at start: the MCP SDK 2.x gets its Node shims with tabmcp’s JSON Schema checker', () => {
    const chunks = startupChunks();
    assert.ok(
      [...chunks.values()].some((text) => text.includes('notifications/initialized')),
      `the MCP SDK is among the startup chunks: ${[...chunks.keys()].join(', ')}`,
    );
    const withAjv = [...chunks].filter(([, text]) => /ajv/i.test(text)).map(([file]) => file);
    assert.deepEqual(withAjv, [], 'Ajv is back in the bundle: see sdkWithoutAjv in scripts/build.mjs');
  });

  it('imports node:http with require, not import, at start (on Node 22 its ESM facade loads undici: ~10 MiB)', () => {
    const withImport = [...startupChunks()]
      .filter(([, text]) => /from\s*"(node:)?http"|import\s*"(node:)?http"/.test(text))
      .map(([file]) => file);
    assert.deepEqual(withImport, [], 'use packages/server/src/link/node-http.ts');
  });

  it('imports node:util with require, not import, at start (on Node 22 its ESM facade loads worker_threads: ~1 MiB)', () => {
    const withImport = [...startupChunks()]
      .filter(([, text]) => /from\s*"(node:)?util"|import\s*"(node:)?util"/.test(text))
      .map(([file]) => file);
    assert.deepEqual(withImport, [], 'use packages/server/src/node-util.ts');
  });
});
