import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { browserLaunchedBy, pageWithUrl } from './cdp';
import { freePort } from './net';
import { serverBin } from './paths';
import { textOf } from './results';
import { type StdioMcp, startStdioMcp } from './stdio-client';
import { waitFor } from './wait';

export { pageWithUrl } from './cdp';

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

export interface Agent extends StdioMcp {
  /** Calls a tool and parses its text as JSON; throws with the tool's text when it fails. */
  json<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
}

/** One MCP client (an "agent") with its own tabmcp process over stdio, on a shared machine. */
export async function startAgent(machine: Machine, extraArgs: string[] = []): Promise<Agent> {
  const agent = await startStdioMcp({
    args: [serverBin, '--headless', '--port', String(machine.port), ...extraArgs],
    env: { TABMCP_HOME: machine.home, TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' },
    clientName: 'tabmcp-e2e-agent',
  });
  return {
    ...agent,
    json: async <T>(name: string, args: Record<string, unknown> = {}) => {
      const result = await agent.call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return JSON.parse(textOf(result)) as T;
    },
    close: async () => {
      await agent.close();
      // TABMCP_E2E_LOGS=<dir> keeps every agent's whole log for a post-mortem, one file per process.
      if (LOG_DIR) {
        mkdirSync(LOG_DIR, { recursive: true });
        writeFileSync(join(LOG_DIR, `agent-${Date.now()}-${agent.pid}.log`), agent.stderr());
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
export function browserOf(agent: Agent): Promise<Browser> {
  return browserLaunchedBy(agent.stderr);
}

/** The demo sites, a fresh machine and one agent on it: where most server tests start. */
export interface Scene {
  site: ExampleServer;
  machine: Machine;
  agent: Agent;
  /** Closes the agent (its tabmcp, and the browser it launched), the sites and the machine. */
  close(): Promise<void>;
}

export async function startScene(agentArgs: string[] = []): Promise<Scene> {
  const site = await startExampleServer();
  const machine = await newMachine();
  const agent = await startAgent(machine, agentArgs).catch(async (error: unknown) => {
    await site.close();
    machine.close();
    throw error;
  });
  return {
    site,
    machine,
    agent,
    close: async () => {
      await agent.close();
      await site.close();
      machine.close();
    },
  };
}

export interface LaunchedScene extends Scene {
  /** Playwright over CDP into the browser the agent launched. */
  browser: Browser;
}

/** A scene whose agent runs with `--launch` and is connected to the browser it launched. */
export async function startLaunchedScene(): Promise<LaunchedScene> {
  const scene = await startScene(['--launch']);
  try {
    await waitFor(
      async () => (await scene.agent.call('connect_browser')).isError !== true,
      20_000,
      'the launched browser',
    );
    const browser = await browserOf(scene.agent);
    return {
      ...scene,
      browser,
      close: async () => {
        await browser.close().catch(() => {});
        await scene.close();
      },
    };
  } catch (error) {
    await scene.close();
    throw error;
  }
}

/** A launched scene shared by the tests of one describe block, each test opening its own tab. */
export interface SceneForTests {
  readonly site: ExampleServer;
  readonly agent: Agent;
  readonly browser: Browser;
  /**
   * Opens `path` of the demo sites in a new tab and returns that page: a query string unique in the file
   * tells it apart from earlier tabs of the same page, so a test never works in another test's tab.
   */
  open(path: string): Promise<Page>;
  /** Resolves once the agent lists the tool `name` (within 10 s). */
  toolNamed(name: string): Promise<true>;
}

/**
 * Registers the before/after hooks of a describe block that shares one launched scene (starting a
 * browser per test would take minutes), and what its tests need to set up their own state.
 */
export function launchedSceneForTests(): SceneForTests {
  let scene: LaunchedScene | undefined;
  let opened = 0;
  before(async () => {
    scene = await startLaunchedScene();
  });
  after(() => scene?.close());
  const current = (): LaunchedScene => {
    if (!scene) throw new Error('the scene starts in before(): use it inside a test');
    return scene;
  };
  return {
    get site() {
      return current().site;
    },
    get agent() {
      return current().agent;
    },
    get browser() {
      return current().browser;
    },
    open: async (path) => {
      const url = `${path}${path.includes('?') ? '&' : '?'}tab=${++opened}`;
      await current().agent.json('open_tab', { url: `${current().site.url}${url}` });
      return pageWithUrl(current().browser, url);
    },
    toolNamed: (name) =>
      waitFor(async () => (await current().agent.toolNames()).includes(name) || undefined, 10_000, `the ${name} tool`),
  };
}
