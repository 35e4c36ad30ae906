import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot, textOf } from './tabmcp-client';

export interface RivalProcess {
  pid: number;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  stderr(): string;
  close(): Promise<void>;
}

/** Another MCP server, from node_modules, over stdio; cwd is a throwaway dir so its output files land there. */
export async function startRival(script: string, args: string[]): Promise<RivalProcess> {
  const workDir = mkdtempSync(join(tmpdir(), 'tabmcp-bench-rival-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repoRoot, 'node_modules', script), ...args],
    cwd: workDir,
    env: {
      ...process.env,
      // Neither rival may reach the network from a benchmark.
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString();
  });
  const client = new Client({ name: 'tabmcp-bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    pid: transport.pid ?? 0,
    call: async (name, callArgs) => {
      const result = (await client.callTool({ name, arguments: callArgs }, undefined, {
        timeout: 60_000,
      })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${textOf(result).slice(0, 500)}`);
      return result;
    },
    stderr: () => stderrText,
    close: async () => {
      await client.close();
      rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
