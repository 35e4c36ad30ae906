import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../../test-support/paths';
import { textOf } from '../../test-support/results';
import { startStdioMcp } from '../../test-support/stdio-client';

export interface RivalProcess {
  pid: number;
  /** Its working directory, where it writes its output files. */
  workDir: string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  stderr(): string;
  close(): Promise<void>;
}

/** The two peers every benchmark runs beside tabmcp: headless, isolated, on the same Chromium build. */
export const PLAYWRIGHT_MCP = {
  script: '@playwright/mcp/cli.js',
  args: ['--headless', '--isolated', '--executable-path', '/usr/bin/chromium', '--no-sandbox'],
};
export const DEVTOOLS_MCP = {
  script: 'chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js',
  args: [
    '--headless',
    '--isolated',
    '--executablePath',
    '/usr/bin/chromium',
    '--chromeArg=--no-sandbox',
    '--usageStatistics=false',
    '--performanceCrux=false',
  ],
};

/** Another MCP server, from node_modules, over stdio; cwd is a throwaway dir so its output files land there. */
export async function startRival(script: string, args: string[]): Promise<RivalProcess> {
  const workDir = mkdtempSync(join(tmpdir(), 'tabmcp-bench-rival-'));
  const rival = await startStdioMcp({
    args: [join(repoRoot, 'node_modules', script), ...args],
    cwd: workDir,
    env: {
      // Neither rival may reach the network from a benchmark.
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    },
    clientName: 'tabmcp-bench',
  });
  return {
    pid: rival.pid,
    workDir,
    call: async (name, callArgs) => {
      const result = (await rival.client.callTool({ name, arguments: callArgs }, undefined, {
        timeout: 60_000,
      })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${textOf(result).slice(0, 500)}`);
      return result;
    },
    stderr: rival.stderr,
    close: async () => {
      await rival.close();
      rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
