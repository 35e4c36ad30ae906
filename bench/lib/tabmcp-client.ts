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

/** The floor for memory: an idle `node` process of the same binary. */
export async function bareNodeResidentMiB(node = process.execPath): Promise<number> {
  const child = spawn(node, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
  await new Promise((done) => setTimeout(done, 500));
  const mib = residentMiB(child.pid ?? 0);
  child.kill();
  return mib;
}
