// `node scripts/inspector-check.mjs`: the MCP Inspector's CLI (one tabmcp process per call, with
// --auto-connect) lists a page's tool and calls it, in a real Chromium launched by another tabmcp.
// The Inspector (and a Node 22 binary when this Node is older) are installed into .tmp/inspector
// on first use. The check is e2e/inspector-cli.test.ts; this runs it alone, builds first if needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'packages/server/dist/tabmcp.js'))) {
  spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
}
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-timeout=600000',
    join(root, 'e2e/inspector-cli.test.ts'),
  ],
  { stdio: 'inherit', cwd: root },
);
process.exit(result.status ?? 1);
