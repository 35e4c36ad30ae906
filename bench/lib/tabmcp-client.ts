import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { StdioMcp } from '../../test-support/stdio-client';
import { startTabmcpProcess } from '../../test-support/tabmcp-process';

export type BenchTabmcp = StdioMcp;

/** The built `tabmcp` over stdio with the official MCP SDK client, on a throwaway TABMCP_HOME. */
export function startBenchTabmcp(
  args: string[],
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
  node?: string,
): Promise<BenchTabmcp> {
  return startTabmcpProcess({ args, nodeArgs, env, clientName: 'tabmcp-bench', node });
}

/** Resident memory of a process in MiB, from /proc (Linux). */
export function residentMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : Number.NaN;
}

/**
 * The floor for memory: an idle `node` process of the same binary, read once it has started (it says
 * so on stdout) and settled. A fixed delay read a half-started node on a loaded machine (21 MiB).
 */
export async function bareNodeResidentMiB(node = process.execPath): Promise<number> {
  const child = spawn(node, ['-e', "process.stdout.write('up'); setTimeout(() => {}, 10000)"], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    await new Promise<void>((started, failed) => {
      const timer = setTimeout(() => failed(new Error('the bare node did not start within 10 s')), 10_000);
      child.stdout.once('data', () => {
        clearTimeout(timer);
        started();
      });
    });
    // Start-up's last allocations and the first idle GC, as the tabmcp process has had by then.
    await new Promise((settled) => setTimeout(settled, 500));
    return residentMiB(child.pid ?? 0);
  } finally {
    child.kill();
  }
}
