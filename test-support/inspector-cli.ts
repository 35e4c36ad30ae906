import { spawn } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { installTools, NODE_22_BIN, NODE_22_PACKAGE } from './npm-tools';

/** Pinned: the CLI's flags and output are what the check reads. */
const INSPECTOR = '@modelcontextprotocol/inspector@0.15.0';
const INSPECTOR_BIN = join('node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');

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
  // The Inspector needs Node ≥ 22.19: under an older Node, a Node 22 binary comes with it.
  const dir = ownNode
    ? installTools('inspector', [INSPECTOR], [INSPECTOR_BIN])
    : installTools('inspector', [INSPECTOR, NODE_22_PACKAGE], [INSPECTOR_BIN, NODE_22_BIN]);
  const bin = join(dir, INSPECTOR_BIN);
  const node = ownNode ? process.execPath : join(dir, NODE_22_BIN);
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
