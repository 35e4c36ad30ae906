import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort, serverBin, textOf, waitFor } from './harness';

const LOG_DIR = process.env.TABMCP_E2E_LOGS;

/** A machine's tabmcp home and link port, shared by every agent started on it. */
export interface Machine {
  home: string;
  port: number;
  token: string;
  close(): void;
}

export async function newMachine(): Promise<Machine> {
  const home = mkdtempSync(join(tmpdir(), 'tabmcp-home-'));
  const token = 'e2e-pairing-token-0123456789abcdef';
  // Where tabmcp keeps the token: every agent of this machine (and `tabmcp pair`) reads it there.
  writeFileSync(join(home, 'pairing-token'), `${token}\n`, { mode: 0o600 });
  return { home, port: await freePort(), token, close: () => rmSync(home, { recursive: true, force: true }) };
}

export interface Agent {
  client: Client;
  stderr(): string;
  listChangedCount(): number;
  nextListChanged(timeoutMs?: number): Promise<void>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  json<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  toolNames(): Promise<string[]>;
  close(): Promise<void>;
}

/** One MCP client (an "agent") with its own tabmcp process over stdio, on a shared machine. */
export async function startAgent(machine: Machine, extraArgs: string[] = []): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBin, '--headless', '--port', String(machine.port), ...extraArgs],
    env: { ...process.env, TABMCP_HOME: machine.home, TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' } as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  let stderrText = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrText += chunk.toString();
  });
  const client = new Client({ name: 'tabmcp-e2e-agent', version: '1.0.0' });
  let listChanged = 0;
  const waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged += 1;
    for (const waiter of waiters.splice(0)) waiter();
  });
  await client.connect(transport);
  const pid = transport.pid;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
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
    call,
    json: async <T>(name: string, args: Record<string, unknown> = {}) => {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return JSON.parse(textOf(result)) as T;
    },
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    close: async () => {
      await client.close();
      // TABMCP_E2E_LOGS=<dir> keeps every agent's whole log for a post-mortem, one file per process.
      if (LOG_DIR) {
        mkdirSync(LOG_DIR, { recursive: true });
        writeFileSync(join(LOG_DIR, `agent-${Date.now()}-${pid}.log`), stderrText);
      }
    },
  };
}

/** Calls a tool with a progress token and collects the progress messages. */
export async function callWithProgress(agent: Agent, name: string, args: Record<string, unknown>) {
  const messages: string[] = [];
  const result = (await agent.client.callTool({ name, arguments: args }, undefined, {
    onprogress: (progress) => messages.push(String(progress.message ?? '')),
  })) as CallToolResult;
  return { result, messages };
}

/** Playwright over CDP into the browser an agent launched (its profile is in the agent's log). */
export async function browserOf(agent: Agent): Promise<Browser> {
  const profileDir = await waitFor(
    () => /"profileDir":"([^"]+)"/.exec(agent.stderr())?.[1],
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
  return chromium.connectOverCDP(`http://127.0.0.1:${devtoolsPort}`);
}

export async function pageWithUrl(browser: Browser, part: string): Promise<Page> {
  return waitFor(
    () =>
      browser
        .contexts()
        .flatMap((context) => context.pages())
        .find((page) => page.url().includes(part)),
    10_000,
    `a page at ${part}`,
  );
}
