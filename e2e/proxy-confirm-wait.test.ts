import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ORIGIN } from '@tabmcp/protocol';
import { type ProxyServer, silentLogger, startProxy } from '@tabmcp/proxy';
import { textOf, waitFor } from '../test-support/harness';
import { SECRET, tokenFor } from '../test-support/proxy/fixtures';
import {
  launchProxyBrowser,
  openTabWithTool,
  type ProxyBrowser,
  type ProxyTabmcp,
  startProxyTabmcp,
  startTestSite,
  type TestSite,
} from '../test-support/proxy-harness';

const BROWSER = 'E2E Chromium waits';

/**
 * A remote agent's call (through `tabmcp --proxy` and a proxy) that waits for the person to confirm
 * it hears so before its answer, as a local agent's does: the extension's notification names the
 * forwarded call, the proxy relays it, and tabmcp sends it on as MCP progress.
 */
describe('a call through the proxy waiting for the person', () => {
  let site: TestSite;
  let proxy: ProxyServer;
  let browser: ProxyBrowser;
  let tabmcp: ProxyTabmcp;

  before(async () => {
    site = await startTestSite();
    proxy = await startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger });
    const token = await tokenFor('user-waits-e2e');
    browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: BROWSER });
    // The person's default on the options page: ask (a headless browser would allow otherwise).
    const options = await browser.context.newPage();
    await options.goto(`${EXTENSION_ORIGIN}/options.html`);
    await options.evaluate(() => chrome.storage.local.set({ confirmPolicy: { default: 'ask' } }));
    await options.close();
    tabmcp = await startProxyTabmcp(proxy.url, token, ['--browser-name', BROWSER]);
    await waitFor(async () => (await tabmcp.call('connect_browser')).isError !== true, 20_000, 'the remote browser');
    await openTabWithTool(tabmcp, `${site.url}/shop/`, 'get_cart');
    const shop = await waitFor(
      () => browser.context.pages().find((page) => page.url().endsWith('/shop/')),
      10_000,
      'the shop page',
    );
    await shop.evaluate(`shop.addTool({ name: 'empty_cart', description: 'Empties the cart',
      inputSchema: { type: 'object', properties: {} }, annotations: { destructiveHint: true } },
      () => ({ emptied: true }))`);
    await waitFor(async () => (await tabmcp.toolNames()).includes('empty_cart'), 15_000, 'empty_cart listed');
  });

  after(async () => {
    await tabmcp?.close();
    await browser?.close();
    await proxy?.close();
    await site?.close();
  });

  it('hears progress saying so before the answer, which says the person denied it', async () => {
    const progress: string[] = [];
    const emptying = tabmcp.client.callTool({ name: 'empty_cart', arguments: {} }, undefined, {
      onprogress: ({ message }) => progress.push(message ?? ''),
      resetTimeoutOnProgress: true,
    });
    const prompt = await waitFor(
      () => browser.context.pages().find((page) => page.url().includes('/confirm.html')),
      15_000,
      'the prompt window',
    );
    const said = await waitFor(() => progress[0], 10_000, 'a progress notification while the prompt is open');
    await prompt.click('#deny');
    const answer = (await emptying) as CallToolResult;
    assert.match(textOf(answer), /"confirmation":"denied by the person"/, textOf(answer));
    assert.match(said, /waiting for the person to confirm empty_cart on 127\.0\.0\.1/, said);
  });
});
