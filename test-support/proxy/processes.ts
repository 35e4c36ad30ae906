import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { FOR_NODE } from '../../scripts/esbuild-node.mjs';
import { repoRoot } from '../paths';
import { SECRET } from './fixtures';

let bundledCli: Promise<string> | undefined;

/**
 * `node` and its arguments to run `tabmcp-proxy` from source: cli.ts bundled once per test process with
 * the options scripts/build.mjs bundles the published CLI with (scripts/esbuild-node.mjs). Each run then
 * starts in ~0.2 s of CPU instead of ~1.1 s through tsx, on a 2-core machine that runs the tests side by side.
 */
export function proxyCli(): Promise<[string, string[]]> {
  bundledCli ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabmcp-proxy-cli-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'tabmcp-proxy.mjs');
    await build({
      entryPoints: [join(repoRoot, 'packages', 'proxy', 'src', 'cli.ts')],
      outfile,
      ...FOR_NODE,
      bundle: true,
      conditions: ['tabmcp-source'],
      logLevel: 'warning',
    });
    return outfile;
  })();
  return bundledCli.then((cli) => [process.execPath, [cli]]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Waits for a line on the child's output that matches, or fails after `timeoutMs` / on exit. */
function waitForLine(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  match: (line: string) => boolean,
  timeoutMs: number,
) {
  return new Promise<string>((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (match(line)) {
          cleanup();
          resolve(line);
          return;
        }
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`process exited (${code}) before it was ready`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`process not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child[stream]?.off('data', onData);
      child.off('exit', onExit);
    };
    child[stream]?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  readonly pid: number | undefined;
  stop(): Promise<void>;
  /** Starts again on the same port, empty (no persistence). */
  start(): Promise<void>;
}

/**
 * A private redis-server on a free loopback port, without persistence. redis-server cannot be told to
 * pick its own port, so the port is found free first; a test process running beside this one may take it
 * in between (redis then exits with "Address already in use"), and the start moves to another port.
 */
export async function startRedis(): Promise<RedisProcess> {
  let port = 0;
  let child: ChildProcess | undefined;
  const start = async () => {
    const output: string[] = [];
    child = spawn(
      '/usr/bin/redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const ready = (line: string) => {
      output.push(line);
      return line.includes('Ready to accept connections');
    };
    await waitForLine(child, 'stdout', ready, 10_000).catch((error: unknown) => {
      const said = output.slice(-3).join(' | ');
      throw new Error(`redis-server on port ${port}: ${(error as Error).message}${said ? ` (it said: ${said})` : ''}`);
    });
    child.stdout?.resume();
  };
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      if (attempt === 5 || !/in use/i.test((error as Error).message)) throw error;
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid;
    },
    stop: async () => {
      if (child) await stop(child, 'SIGTERM');
    },
    start,
  };
}

export interface ProxyProcess {
  readonly port: number;
  readonly url: string;
  readonly pid: number | undefined;
  /** SIGKILL: the abrupt death of an instance. */
  kill(): Promise<void>;
  /** SIGTERM: a graceful shutdown. */
  stop(): Promise<void>;
}

/** Runs `tabmcp-proxy serve` in its own process (from source, see proxyCli), on a free port. */
export async function spawnProxy(args: string[]): Promise<ProxyProcess> {
  const [node, cli] = await proxyCli();
  const child = spawn(node, [...cli, 'serve', '--port', '0', ...args], {
    cwd: repoRoot,
    env: { ...process.env, TABMCP_PROXY_SECRET: SECRET },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const line = await waitForLine(child, 'stderr', (text) => text.includes('"proxy.listening"'), 20_000).catch(
    async (error: unknown) => {
      await stop(child, 'SIGKILL');
      throw error;
    },
  );
  child.stderr?.resume(); // keep draining logs so the child never blocks on a full pipe
  const port = (JSON.parse(line) as { port: number }).port;
  return {
    port,
    url: `ws://127.0.0.1:${port}`,
    pid: child.pid,
    kill: () => stop(child, 'SIGKILL'),
    stop: () => stop(child, 'SIGTERM'),
  };
}
