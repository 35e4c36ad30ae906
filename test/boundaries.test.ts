// The architecture's rules are checks, not conventions: a file that crosses a boundary must fail
// the project's own typecheck or lint. Each case drops one offending file into a guarded folder,
// runs the check that guards it, and removes the file again.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');

interface Check {
  tool: 'tsc' | 'biome';
  /** For tsc: the package whose own tsconfig must refuse the file. */
  project?: string;
}

function runCheck(check: Check, file: string): { ok: boolean; output: string } {
  const [command, args] =
    check.tool === 'tsc'
      ? [
          join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
          ['-p', join('packages', check.project ?? '', 'tsconfig.json')],
        ]
      : [join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), ['lint', '--max-diagnostics=50', file]];
  const result = spawnSync(process.execPath, [command, ...args], { cwd: root, encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

function withProbe(folder: string, source: string, check: Check): { ok: boolean; output: string } {
  const file = join(folder, `zz-boundary-probe-${process.pid}.ts`);
  writeFileSync(join(root, file), source);
  try {
    return runCheck(check, file);
  } finally {
    rmSync(join(root, file), { force: true });
  }
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
  for (const { what, folder, source, check, expect } of cases) {
    it(`refuses ${what}`, () => {
      const result = withProbe(folder, source, check);
      assert.equal(result.ok, false, `${check.tool} accepted ${what}:\n${result.output}`);
      assert.match(result.output, expect);
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
});
