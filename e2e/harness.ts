import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, chromium } from 'playwright-core';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const serverBin = join(repoRoot, 'packages', 'server', 'dist', 'tabmcp.js');

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls `check` (sync or async) until it returns a truthy value. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

export interface TabmcpUnderTest {
  client: Client;
  port: number;
  stderr: () => string;
  listChangedCount: () => number;
  /** Resolves at the next tools/list_changed after this call. */
  nextListChanged: (timeoutMs?: number) => Promise<void>;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  toolNames: () => Promise<string[]>;
  /** Playwright over CDP into the launched browser, for checks that do not go through tabmcp. */
  cdp: () => Promise<Browser>;
  close: () => Promise<void>;
}

/** Starts the built `tabmcp` over stdio with the official MCP SDK client, as an agent would. */
export async function startTabmcp(extraArgs: string[] = []): Promise<TabmcpUnderTest> {
  const home = mkdtempSync(join(tmpdir(), 'tabmcp-home-'));
  const port = await freePort();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBin, '--headless', '--port', String(port), ...extraArgs],
    env: { ...process.env, TABMCP_HOME: home, TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' } as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString();
  });
  const client = new Client({ name: 'tabmcp-e2e', version: '1.0.0' });
  let listChanged = 0;
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged += 1;
    for (const waiter of waiters.splice(0)) waiter();
  });
  await client.connect(transport);
  let browser: Browser | undefined;
  return {
    client,
    port,
    stderr: () => stderrText,
    listChangedCount: () => listChanged,
    nextListChanged: (timeoutMs = 10_000) =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no tools/list_changed arrived')), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          done();
        });
      }),
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    cdp: async () => {
      if (browser) return browser;
      const profileDir = await waitFor(
        () => /"profileDir":"([^"]+)"/.exec(stderrText)?.[1],
        10_000,
        'the launched browser profile',
      );
      const devtoolsPort = await waitFor(
        () => {
          try {
            return readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8').split('\n')[0];
          } catch {
            return undefined;
          }
        },
        10_000,
        'DevToolsActivePort',
      );
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${devtoolsPort}`);
      return browser;
    },
    close: async () => {
      await browser?.close().catch(() => {});
      await client.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

export function jsonOf<T = Record<string, unknown>>(result: CallToolResult): T {
  return JSON.parse(textOf(result)) as T;
}
