import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverBin = join(repoRoot, 'packages', 'server', 'dist', 'tabmcp.js');

export interface BenchTabmcp {
  client: Client;
  pid: number;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  toolNames(): Promise<string[]>;
  stderr(): string;
  close(): Promise<void>;
}

/** The built `tabmcp` over stdio with the official MCP SDK client, on a throwaway TABMCP_HOME. */
export async function startBenchTabmcp(args: string[], nodeArgs: string[] = []): Promise<BenchTabmcp> {
  const home = mkdtempSync(join(tmpdir(), 'tabmcp-bench-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, serverBin, ...args],
    env: { ...process.env, TABMCP_HOME: home } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString();
  });
  const client = new Client({ name: 'tabmcp-bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? 0,
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    stderr: () => stderrText,
    close: async () => {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in MiB, from /proc (Linux). */
export function residentMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : Number.NaN;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/** The floor for memory: an idle `node` process of the same binary. */
export async function bareNodeResidentMiB(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
  await new Promise((done) => setTimeout(done, 500));
  const mib = residentMiB(child.pid ?? 0);
  child.kill();
  return mib;
}
