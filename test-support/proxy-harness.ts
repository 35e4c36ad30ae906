import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type BrowserContext, chromium } from 'playwright-core';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { devtoolsPortOf } from './cdp';
import { freePort, repoRoot, serverBin, waitFor } from './harness';
import { browserToken, SECRET } from './proxy/fixtures';
import { type Json, TestSocket } from './proxy/test-socket';
import { type StdioMcp, startStdioMcp } from './stdio-client';

/** Proxy-mode test helpers: Chromium whose extension dials a proxy, `tabmcp --proxy`, a raw proxy client. */

export interface ProxyBrowser {
  /** Playwright over CDP into the browser, for checks and actions that do not go through the proxy. */
  context: BrowserContext;
  /** Writes a new config.json into the loaded extension copy (a companion process refreshing the token). */
  writeConfig(config: Record<string, unknown>): Promise<void>;
  /** SIGKILL of the whole browser: its sockets drop without a goodbye, its pages never close. */
  crash(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Real Chromium (started like the launcher does, so the test can kill it) with a copy of the built
 * extension configured for proxy mode through its config.json.
 */
export async function launchProxyBrowser(config: {
  proxyUrl?: string;
  proxyToken?: string;
  browserName?: string;
}): Promise<ProxyBrowser> {
  const dir = mkdtempSync(join(tmpdir(), 'tabmcp-proxy-e2e-'));
  const extensionDir = join(dir, 'extension');
  cpSync(join(repoRoot, 'packages', 'extension', 'dist'), extensionDir, { recursive: true });
  // The local link dials a port nobody listens on, so only proxy mode is in play.
  const unused = await freePort();
  // The proxy registers a browser only with a browser-role token; tests hand one token to both sides.
  const writeConfig = async (values: Record<string, unknown>) => {
    const proxyToken = typeof values.proxyToken === 'string' ? await browserToken(values.proxyToken) : undefined;
    const written = proxyToken === undefined ? values : { ...values, proxyToken };
    writeFileSync(join(extensionDir, 'config.json'), JSON.stringify({ port: unused, ...written }));
  };
  await writeConfig(config);
  const profile = join(dir, 'profile');
  mkdirSync(profile);
  const child = spawn(
    '/usr/bin/chromium',
    [
      ...chromiumArgs({ headless: true, profileDir: profile, extensionDirs: [extensionDir] }),
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { detached: true, stdio: 'ignore' },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      child.kill(name);
    }
    await exited;
  };
  const devtoolsPort = await devtoolsPortOf(profile, 15_000).catch(async (error: unknown) => {
    await signal('SIGKILL');
    throw error;
  });
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${devtoolsPort}`);
  const [context] = cdp.contexts();
  if (!context) throw new Error('no default browser context');
  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  return {
    context,
    writeConfig,
    crash: async () => {
      await signal('SIGKILL');
      await cdp.close().catch(() => {});
      cleanup();
    },
    close: async () => {
      await cdp.close().catch(() => {});
      await signal('SIGTERM');
      cleanup();
    },
  };
}

export type ProxyTabmcp = StdioMcp;

/** The built `tabmcp --proxy` over stdio with the official MCP SDK client. */
export async function startProxyTabmcp(
  proxyUrl: string,
  token: string,
  extraArgs: string[] = [],
): Promise<ProxyTabmcp> {
  const tabmcp = await startStdioMcp({
    args: [serverBin, '--proxy', proxyUrl, ...extraArgs],
    env: { TABMCP_TOKEN: token },
    clientName: 'tabmcp-proxy-e2e',
  });
  let closing = false;
  // A tabmcp that dies on its own is a bug: its last log lines say why.
  tabmcp.client.onclose = () => {
    if (!closing) console.error(`tabmcp --proxy exited unexpectedly; its log ends:\n${tabmcp.stderr().slice(-4_000)}`);
  };
  return {
    ...tabmcp,
    close: () => {
      closing = true;
      return tabmcp.close();
    },
  };
}

/** Opens a tab through the agent and waits until the page's tool shows in the tool list (a busy machine may need more than open_tab's wait). */
export async function openTabWithTool(tabmcp: ProxyTabmcp, url: string, tool: string): Promise<void> {
  const opened = await tabmcp.call('open_tab', { url });
  if (opened.isError) throw new Error(`open_tab failed: ${JSON.stringify(opened.content)}`);
  await waitFor(async () => (await tabmcp.toolNames()).includes(tool), 15_000, `the page tool ${tool}`);
}

/** Calls a tool until it succeeds (the link may still be reconnecting), returning the first success. */
export async function callUntilOk(
  tabmcp: ProxyTabmcp,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<CallToolResult> {
  let last: CallToolResult | undefined;
  return waitFor(
    async () => {
      last = await tabmcp.call(name, args);
      return last.isError ? undefined : last;
    },
    timeoutMs,
    `${name} to succeed (last: ${JSON.stringify(last?.content)})`,
  );
}

/** A bare docs/requirements.md#remote-proxy MCP client (what any other automation tool speaks), for the raw methods. */
export class RawProxyClient {
  #nextId = 1;
  private constructor(readonly socket: TestSocket) {}

  static async connect(proxyUrl: string, token: string, browserName: string): Promise<RawProxyClient> {
    const socket = await TestSocket.open(`${proxyUrl}/mcp`);
    const client = new RawProxyClient(socket);
    const handshake = await client.request('mcp_handshake', { accessToken: token });
    if (!handshake.result) throw new Error(`handshake failed: ${JSON.stringify(handshake)}`);
    const extension = await waitFor(
      async () => {
        const listed = (await client.request('list_extensions', {})).result as {
          extensions: Array<{ id: string; name: string }>;
        };
        return listed.extensions.find((entry) => entry.name === browserName);
      },
      15_000,
      `browser "${browserName}" in list_extensions`,
    );
    const connected = await client.request('connect', { extension_id: extension.id });
    if (!connected.result) throw new Error(`connect failed: ${JSON.stringify(connected)}`);
    return client;
  }

  /** One request; resolves with the whole reply frame (result or error). */
  request(method: string, params: unknown, timeoutMs = 20_000): Promise<Json> {
    const id = this.#nextId++;
    this.socket.send({ jsonrpc: '2.0', id, method, params });
    return this.socket.nextMatching((frame) => frame.id === id && !('method' in frame), timeoutMs);
  }

  /** The result, or throws with the error the browser answered. */
  async result<T = Json>(method: string, params: unknown, timeoutMs?: number): Promise<T> {
    const reply = await this.request(method, params, timeoutMs);
    if (!('result' in reply)) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.result as T;
  }

  close(): void {
    this.socket.close();
  }
}

export interface TestSite {
  url: string;
  /** A page with a tool that never answers (`wait_forever`) and one that does (`ping`). */
  slowUrl: string;
  /**
   * `heavyUrl(n)`: a page with n tools `t<n>_<i>` of 8,000-character descriptions each (n = 150 is 1.2 MB),
   * after a tool `euros` that answers "€" `count` times.
   */
  heavyUrl(toolCount: number): string;
  close(): Promise<void>;
}

const SLOW_PAGE = `<!doctype html><title>slow</title><script src="/sdk/tabmcp-page.js"></script><script>
  const provider = new TabMcp.McpWindowProvider({ name: 'slow', version: '1.0.0' });
  provider.addTool({ name: 'wait_forever', description: 'Never answers.', inputSchema: { type: 'object', properties: {} } },
    () => new Promise(() => {}));
  provider.addTool({ name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object', properties: {} } },
    () => ({ pong: true }));
  provider.exposeOnWindow();
  TabMcp.serveTab(provider);
</script>`;

const HEAVY_PAGE = `<!doctype html><title>heavy</title><script src="/sdk/tabmcp-page.js"></script><script>
  const count = Number(new URLSearchParams(location.search).get('n'));
  const provider = new TabMcp.McpWindowProvider({ name: 'heavy', version: '1.0.0' });
  provider.addTool({ name: 'euros', description: 'Answers "€" repeated \`count\` times (3 UTF-8 bytes each).',
    inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } }, ({ count }) => '€'.repeat(count));
  for (let i = 0; i < count; i++) {
    provider.addTool({ name: 't' + count + '_' + i, description: String(i).padEnd(8000, '.'),
      inputSchema: { type: 'object', properties: {} } }, () => ({ i }));
  }
  provider.exposeOnWindow();
  TabMcp.serveTab(provider);
</script>`;

/**
 * The demo shop, a plain page and the slow page, served from memory: read once at the start, so a
 * build running beside the tests (it empties packages/page/dist for a moment) cannot change a page.
 */
export async function startTestSite(): Promise<TestSite> {
  const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
  const sdkPath = join(repoRoot, 'packages', 'page', 'dist', 'tabmcp-page.js');
  const sdk = await waitFor(
    () => {
      try {
        return readFileSync(sdkPath, 'utf8');
      } catch {
        return undefined;
      }
    },
    10_000,
    'the built page SDK (node scripts/build.mjs)',
  );
  const files = new Map<string, { type: string; body: string }>([
    ['/shop/', { type: 'text/html', body: read('examples/shop/index.html') }],
    ['/shop/shop.js', { type: 'text/javascript', body: read('examples/shop/shop.js') }],
    ['/plain/about.html', { type: 'text/html', body: read('examples/plain/about.html') }],
    ['/sdk/tabmcp-page.js', { type: 'text/javascript', body: sdk }],
    ['/slow.html', { type: 'text/html', body: SLOW_PAGE }],
    ['/heavy.html', { type: 'text/html', body: HEAVY_PAGE }],
  ]);
  const server = createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (!file) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': `${file.type}; charset=utf-8` }).end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    slowUrl: `${url}/slow.html`,
    heavyUrl: (toolCount) => `${url}/heavy.html?n=${toolCount}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

export interface ProxyInstance {
  readonly port: number;
  readonly url: string;
  /** The instance's log lines so far (JSON per line), for a failing test to show. */
  logs(): string;
  /** SIGKILL: the abrupt death of an instance. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** `tabmcp-proxy serve` in its own process on a given port, keeping its log (packages/proxy/test's spawnProxy drops it). */
export async function spawnProxyInstance(port: number, args: string[]): Promise<ProxyInstance> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'packages', 'proxy', 'src', 'cli.ts'), 'serve', '--port', String(port), ...args],
    { cwd: repoRoot, env: { ...process.env, TABMCP_PROXY_SECRET: SECRET }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let logs = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    logs = (logs + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      logs += `(exited: code ${code}, signal ${signal})\n`;
      done();
    }),
  );
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  await waitFor(
    () => logs.includes('"proxy.listening"') || (child.exitCode !== null && Promise.reject(new Error(logs))),
    20_000,
    `proxy instance on port ${port}`,
  ).catch(async (error: unknown) => {
    await stop('SIGKILL');
    throw error;
  });
  return {
    port,
    url: `ws://127.0.0.1:${port}`,
    logs: () => logs,
    kill: () => stop('SIGKILL'),
    stop: () => stop('SIGTERM'),
  };
}
