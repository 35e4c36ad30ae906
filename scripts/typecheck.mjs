// Type-checks each package against its own environment (packages/*/tsconfig.json: no DOM or Node
// in protocol and hub, chrome only in the extension, node only in server and proxy), then the
// tests, e2e, bench and examples together (tsconfig.json). A boundary crossed in a package's
// source fails here even though the loose root project would accept it.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const PROJECTS = ['protocol', 'hub', 'page', 'extension', 'server', 'proxy'].map((name) =>
  join('packages', name, 'tsconfig.json'),
);

let failed = false;
for (const project of [...PROJECTS, 'tsconfig.json']) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`typecheck: ${project} failed`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
