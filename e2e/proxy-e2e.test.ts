import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ID } from '@tabmcp/protocol';
import { type ProxyServer, signToken, silentLogger, startProxy } from '@tabmcp/proxy';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { loadOrCreateToken } from '../packages/server/src/pairing';
import { jsonOf, serverBin, textOf, waitFor } from '../test-support/harness';
import { browserToken, SECRET, tokenFor } from '../test-support/proxy/fixtures';
import {
  launchProxyBrowser,
  type ProxyBrowser,
  type ProxyTabmcp,
  RawProxyClient,
  startProxyTabmcp,
  startTestSite,
  type TestSite,
} from '../test-support/proxy-harness';
import { startStdioMcp } from '../test-support/stdio-client';

const BROWSER = 'E2E Chromium';

describe('proxy mode: the extension behind a proxy, `tabmcp --proxy` and a raw proxy client', () => {
  let site: TestSite;
  let proxy: ProxyServer;
  let browser: ProxyBrowser;
  let tabmcp: ProxyTabmcp;
  let raw: RawProxyClient;
  let token: string;

  before(async () => {
    site = await startTestSite();
    proxy = await startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger });
    token = await tokenFor('user-e2e');
    browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: BROWSER });
    tabmcp = await startProxyTabmcp(proxy.url, token, ['--browser-name', BROWSER]);
  });

  after(async () => {
    raw?.close();
    await tabmcp?.close();
    await browser?.close();
    await proxy?.close();
    await site?.close();
  });

  it('connect_browser reaches the remote browser through the proxy', async () => {
    assert.deepEqual(await tabmcp.toolNames(), ['connect_browser']);
    const result = await tabmcp.call('connect_browser');
    assert.notEqual(result.isError, true, textOf(result));
    const body = jsonOf<{ connected: boolean; browser: { name: string; version: string } }>(result);
    assert.equal(body.connected, true);
    assert.match(body.browser.version, /^\d+\./);
    const names = await tabmcp.toolNames();
    assert.ok(names.includes('open_tab') && names.includes('list_tabs'), String(names));
  });

  it('open_tab creates the tab remotely and its page tools work through the proxy', async () => {
    const changed = tabmcp.nextListChanged();
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/shop/` });
    assert.notEqual(opened.isError, true, textOf(opened));
    assert.equal(jsonOf<{ toolCount: number }>(opened).toolCount, 5);
    await changed;
    assert.deepEqual((await tabmcp.toolNames()).slice(-5), [
      'search_products',
      'add_to_cart',
      'get_cart',
      'get_page_content',
      'open_link',
    ]);
    const tools = (await tabmcp.client.listTools()).tools;
    const add = tools.find((tool) => tool.name === 'add_to_cart');
    assert.ok(add?.description?.startsWith(`[page ${site.url}]`));
    assert.deepEqual(add?.inputSchema.required, ['productId']);
    const added = await tabmcp.call('add_to_cart', { productId: 'p3', quantity: 2 });
    assert.notEqual(added.isError, true, textOf(added));
    assert.equal((added.structuredContent as { total: number }).total, 68);
    const bad = await tabmcp.call('add_to_cart', { quantity: 1 });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /productId/);
  });

  it('tabs opened in the browser itself reach the agent (getTabs long poll)', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${site.url}/plain/about.html`);
    const listed = await waitFor(
      async () => {
        const tabs = jsonOf<{ tabs: Array<{ url: string }> }>(await tabmcp.call('list_tabs')).tabs;
        return tabs.some((tab) => tab.url.endsWith('/plain/about.html')) && tabs;
      },
      10_000,
      'the new tab in list_tabs',
    );
    assert.ok(listed.length >= 2);
    await page.close();
  });

  it('answers createTab, click, type, hover, screenshot, CDP, navigation and page-tool methods', async () => {
    raw = await RawProxyClient.connect(proxy.url, token, BROWSER);
    const created = await raw.result<{ tabId: number; url: string; toolsReady: boolean }>('createTab', {
      url: `${site.url}/shop/`,
      stealth: true,
    });
    assert.equal(created.url, `${site.url}/shop/`);
    assert.equal(created.toolsReady, true);
    const { tabId } = created;

    const listed = await raw.result<{ tools: Array<{ name: string }> }>('listPageTools', { tabId });
    assert.deepEqual(
      listed.tools.map((tool) => tool.name),
      ['search_products', 'add_to_cart', 'get_cart', 'get_page_content', 'open_link'],
    );

    // type into the search field: the page filters its list on real input events
    const typed = await raw.result<{ typed: boolean }>('type', { tabId, selector: '#query', text: 'mug' });
    assert.equal(typed.typed, true);
    const count = await raw.result<{ result: { result: { value: number } } }>('forwardCDPCommand', {
      tabId,
      method: 'Runtime.evaluate',
      params: { expression: "document.querySelectorAll('#results li').length", returnByValue: true },
    });
    assert.equal(count.result.result.value, 2);

    // click the first "Add to cart" button: a trusted click that the page handles like a person's
    const clicked = await raw.result<{ clicked: boolean; x: number; y: number }>('click', {
      tabId,
      selector: '#results li button',
    });
    assert.equal(clicked.clicked, true);
    const cart = await raw.result<{ structuredContent: { items: Array<{ id: string }>; total: number } }>(
      'callPageTool',
      { tabId, name: 'get_cart', arguments: {} },
    );
    assert.deepEqual(
      cart.structuredContent.items.map((item) => item.id),
      ['p1'],
    );
    assert.equal(cart.structuredContent.total, 12.5);

    const hovered = await raw.result<{ hovered: boolean }>('hover', { tabId, x: clicked.x, y: clicked.y });
    assert.equal(hovered.hovered, true);

    const shot = await raw.result<{ mimeType: string; data: string }>('screenshot', { tabId });
    assert.equal(shot.mimeType, 'image/png');
    assert.deepEqual([...Buffer.from(shot.data, 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    // A tab behind another one is made active and captured once it has painted.
    const other = await raw.result<{ tabId: number }>('createTab', { url: `${site.url}/plain/about.html` });
    await raw.result('activateTab', { tabId: other.tabId });
    const behind = await raw.result<{ tabId: number; data: string }>('screenshot', { tabId });
    assert.equal(behind.tabId, tabId);
    assert.deepEqual([...Buffer.from(behind.data, 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    await raw.result('closeTab', { tabId: other.tabId });

    const navigated = await raw.result<{ url: string }>('browser_navigate', {
      tabId,
      url: `${site.url}/plain/about.html`,
    });
    assert.equal(navigated.url, `${site.url}/plain/about.html`);
    const back = await raw.result<{ url: string }>('goBack', { tabId });
    assert.equal(back.url, `${site.url}/shop/`);
    const forward = await raw.result<{ url: string }>('goForward', { tabId });
    assert.equal(forward.url, `${site.url}/plain/about.html`);
    const selected = await raw.result<{ tabId: number }>('activateTab', { tabId });
    assert.equal(selected.tabId, tabId);

    const tabs = await raw.result<{ tabs: Array<{ id: number }>; version: number }>('getTabs', {});
    assert.ok(tabs.tabs.some((tab) => tab.id === tabId));
    assert.deepEqual(await raw.result('closeTab', { tabId }), { closed: true, tabId });
  });

  it('is configured from the options page, which shows the link state', async () => {
    const other = await launchProxyBrowser({});
    try {
      const options = await other.context.newPage();
      await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
      await options.fill('#proxy-url', proxy.url);
      // The user pastes the browser's token (role extension), not the agent's.
      await options.fill('#proxy-token', await browserToken(token));
      await options.fill('#browser-name', 'Options Chromium');
      await options.click('#proxy-form button[type=submit]');
      await options.waitForFunction(
        () => document.getElementById('proxy-status')?.textContent?.startsWith('Connected to'),
        undefined,
        { timeout: 10_000 },
      );
      const client = await RawProxyClient.connect(proxy.url, token, 'Options Chromium');
      const tabs = await client.result<{ tabs: Array<{ url: string }> }>('getTabs', {});
      assert.ok(tabs.tabs.some((tab) => tab.url.endsWith('/options.html')));
      client.close();
      await options.click('#proxy-off');
      await options.waitForFunction(
        () => document.getElementById('proxy-status')?.textContent?.startsWith('Off'),
        undefined,
        {
          timeout: 10_000,
        },
      );
    } finally {
      await other.close();
    }
  });

  it('serves MCP over Streamable HTTP too, one proxy connection per MCP session', async () => {
    // --http clients present the bearer token derived from the local pairing token (docs/mcp-eras.md).
    const home = mkdtempSync(join(tmpdir(), 'tabmcp-proxy-http-'));
    const bearer = httpBearerToken(loadOrCreateToken(home));
    const child = spawn(process.execPath, [serverBin, '--proxy', proxy.url, '--http', '0', '--browser-name', BROWSER], {
      env: { ...process.env, TABMCP_PROXY_TOKEN: token, TABMCP_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let logs = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const client = new Client({ name: 'tabmcp-proxy-http', version: '1.0.0' });
    try {
      const url = await waitFor(() => /"url":"(http:[^"]+)"/.exec(logs)?.[1], 10_000, 'http.listening');
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(refused.status, 401, 'no bearer token, no session');
      const headers = { Authorization: `Bearer ${bearer}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      const connected = (await client.callTool({ name: 'connect_browser', arguments: {} })) as CallToolResult;
      assert.notEqual(connected.isError, true, textOf(connected));
      const tabs = jsonOf<{ tabs: Array<{ url: string }> }>(
        (await client.callTool({ name: 'list_tabs', arguments: {} })) as CallToolResult,
      );
      assert.ok(tabs.tabs.some((tab) => tab.url === `${site.url}/shop/`));
    } finally {
      await client.close();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('needs no --proxy when the token carries connection_url (issue 14, defect 17)', async () => {
    const named = await signToken({
      secret: SECRET,
      userId: 'user-e2e',
      ttl: '1h',
      claims: { connection_url: proxy.url },
    });
    const client = await startStdioMcp({
      args: [serverBin, '--browser-name', BROWSER],
      env: { TABMCP_PROXY_TOKEN: named },
      clientName: 'tabmcp-connection-url',
    });
    try {
      const connected = await client.call('connect_browser');
      assert.notEqual(connected.isError, true, textOf(connected));
      assert.match(client.stderr(), /"event":"proxy.mode"/);
    } finally {
      await client.close();
    }
  });

  it('answers bad requests with errors, never a bare id', async () => {
    const unknown = await raw.request('fly', {});
    assert.equal((unknown.error as { code: number }).code, -32601);
    assert.match((unknown.error as { message: string }).message, /createTab/);
    const noTarget = await raw.request('click', { tabId: 1 });
    assert.equal((noTarget.error as { code: number }).code, -32602);
    assert.match((noTarget.error as { message: string }).message, /selector/);
    // The browser's own pages stay out of reach remotely too (issue 13): about:blank only.
    const settings = await raw.request('browser_navigate', { tabId: 999_999, url: 'about:settings' });
    assert.equal((settings.error as { code: number }).code, -32602);
    assert.match((settings.error as { message: string }).message, /about:blank/);
    const gone = await raw.request('closeTab', { tabId: 999_999 });
    assert.equal(
      (gone.error as { code: number }).code,
      -32007,
      "tab not found: not docs/requirements.md#remote-proxy's -32001 (already connected)",
    );
    const script = await raw.request('browser_navigate', { tabId: 1, url: 'javascript:alert(1)' });
    assert.equal((script.error as { code: number }).code, -32602);
    const missing = await raw.request('click', { tabId: (await firstTabId(raw)) ?? 0, selector: '#nothing-here' });
    assert.match((missing.error as { message: string }).message, /No element matches/);
  });
});

async function firstTabId(raw: RawProxyClient): Promise<number | undefined> {
  const tabs = await raw.result<{ tabs: Array<{ id: number; url: string }> }>('getTabs', {});
  return tabs.tabs.find((tab) => tab.url.startsWith('http'))?.id;
}
