// What `npm start` and `npm test` need before they run, so that a fresh clone needs only one of them:
// the npm packages (installed here when missing) and the system packages npm cannot install, all
// named at once with the command that installs them instead of a failure minutes later.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function installNpmPackages() {
  // npm writes this file at the end of every successful install.
  if (existsSync(join(root, 'node_modules', '.package-lock.json'))) return;
  console.error('setup: installing the npm packages (npm install)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) fail(['`npm install` failed; its output above says why.']);
}

function fail(problems) {
  console.error(`\nsetup: cannot run yet:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`);
  process.exit(1);
}

/** `npm start`: the demo launches a browser the way tabmcp finds one (packages/server/src/launcher/find-browser.ts). */
export function prepareForDemo() {
  installNpmPackages();
  const probe = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      "const m = await import('./packages/server/src/launcher/find-browser.ts'); if (!m.findBrowser(undefined)) { console.log(m.INSTALL_INSTRUCTIONS); process.exit(3); }",
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (probe.status === 3) fail([probe.stdout.trim()]);
}

/** `npm test`: the end-to-end tests run /usr/bin/chromium, the proxy tests /usr/bin/redis-server. */
function prepareForTests() {
  installNpmPackages();
  const problems = [];
  if (!isExecutable('/usr/bin/chromium'))
    problems.push(
      'Chromium at /usr/bin/chromium (the end-to-end tests): Debian/Ubuntu `sudo apt-get install -y chromium`',
    );
  if (!isExecutable('/usr/bin/redis-server'))
    problems.push('redis-server at /usr/bin/redis-server (the proxy tests): `sudo apt-get install -y redis-server`');
  if (problems.length > 0) fail(problems);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) prepareForTests();
