// `npm start`: installs and builds if needed (a fresh clone needs nothing else), serves the demo shop,
// starts tabmcp (which launches Chromium with the extension) and plays an agent's calls through the
// official MCP SDK client, printing each one.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareForDemo } from './setup-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
prepareForDemo();
if (
  !existsSync(join(root, 'packages/server/dist/tabmcp.js')) ||
  !existsSync(join(root, 'packages/server/dist/extension/manifest.json'))
) {
  spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'examples/demo-agent.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: root,
  },
);
process.exit(result.status ?? 1);
