import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ProxyServer, silentLogger, startProxy } from '@tabmcp/proxy';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { SECRET, tokenFor } from '../packages/proxy/test/helpers/fixtures';
import { jsonOf, textOf, waitFor } from './harness';
import {
  callUntilOk,
  launchProxyBrowser,
  type ProxyBrowser,
  type ProxyTabmcp,
  RawProxyClient,
  type SlowPages,
  startProxyTabmcp,
  startSlowPages,
} from './proxy-harness';

const BROWSER = 'Faulty Chromium';

describe('proxy mode faults: a browser dropping mid-call, clients dropping, token refresh', () => {
  let site: ExampleServer;
  let pages: SlowPages;
  let pageUrl: string;
  let proxy: ProxyServer;
  let browser: ProxyBrowser | undefined;
  let tabmcp: ProxyTabmcp;
  let token: string;

  before(async () => {
    site = await startExampleServer();
    pages = await startSlowPages(site.url);
    pageUrl = pages.url;
    proxy = await startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger });
    token = await tokenFor('user-faults');
    browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: BROWSER });
    tabmcp = await startProxyTabmcp(proxy.url, token, ['--browser-name', BROWSER]);
    const connected = await tabmcp.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    const opened = await tabmcp.call('open_tab', { url: pageUrl });
    assert.notEqual(opened.isError, true, textOf(opened));
  });

  after(async () => {
    await tabmcp?.close();
    await browser?.close();
    await proxy?.close();
    await pages?.close();
    await site?.close();
  });

  it('a browser that drops mid-call: the call gets a clear error, the agent reconnects when it is back', async () => {
    const pending = tabmcp.call('wait_forever');
    await waitFor(() => proxy.stats().inFlight > 0, 10_000, 'the call to reach the proxy');
    await browser?.crash();
    browser = undefined;
    const failed = await pending;
    assert.equal(failed.isError, true);
    assert.match(textOf(failed), /disconnected|gone/i);
    assert.match(textOf(failed), /reconnects by itself/);
    await waitFor(async () => (await tabmcp.toolNames()).includes('connect_browser'), 10_000, 'DISCONNECTED state');
    const meanwhile = await tabmcp.call('list_tabs');
    assert.equal(meanwhile.isError, true);

    browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: BROWSER });
    // The session reconnects by itself (the agent had connected); a fresh browser has its own tabs.
    await callUntilOk(tabmcp, 'list_tabs', {}, 20_000);
    const opened = await tabmcp.call('open_tab', { url: pageUrl });
    assert.notEqual(opened.isError, true, textOf(opened));
    const pong = await tabmcp.call('ping');
    assert.notEqual(pong.isError, true, textOf(pong));
    assert.match(textOf(pong), /"pong":\s*true/);
  });

  it('an MCP client that drops with a call in flight harms nobody else', async () => {
    const raw = await RawProxyClient.connect(proxy.url, token, BROWSER);
    const tabs = await raw.result<{ tabs: Array<{ id: number; url: string }> }>('getTabs', {});
    const tab = tabs.tabs.find((entry) => entry.url === pageUrl);
    assert.ok(tab, JSON.stringify(tabs));
    raw.socket.send({ jsonrpc: '2.0', id: 7, method: 'callPageTool', params: { tabId: tab.id, name: 'wait_forever' } });
    await waitFor(() => proxy.stats().inFlight > 1, 10_000, 'the raw call in flight (beside the long poll)');
    raw.socket.terminate();
    await waitFor(() => proxy.stats().mcpClients === 1, 10_000, 'the proxy to forget the dropped client');
    const pong = await tabmcp.call('ping');
    assert.notEqual(pong.isError, true, textOf(pong));
    assert.match(textOf(pong), /"pong":\s*true/);
  });

  it('an agent whose MCP client goes away lets go of the proxy', async () => {
    const second = await startProxyTabmcp(proxy.url, token, ['--browser-name', BROWSER]);
    const connected = await second.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    assert.equal(proxy.stats().mcpClients, 2);
    await second.close();
    await waitFor(() => proxy.stats().mcpClients === 1, 10_000, 'the second tabmcp to leave the proxy');
    const tabs = jsonOf<{ tabs: unknown[] }>(await tabmcp.call('list_tabs'));
    assert.ok(tabs.tabs.length > 0);
  });

  it('before its token expires, the extension reconnects with the newer token it finds', async () => {
    const name = 'Refreshing Chromium';
    const shortLived = await tokenFor('user-faults', '4s');
    const refreshing = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: shortLived, browserName: name });
    try {
      const raw = await RawProxyClient.connect(proxy.url, token, BROWSER);
      const idOf = async () => {
        const listed = await raw.result<{ extensions: Array<{ id: string; name: string }> }>('list_extensions', {});
        return listed.extensions.find((entry) => entry.name === name)?.id;
      };
      const first = await waitFor(idOf, 10_000, 'the short-lived browser in list_extensions');
      // A companion process writes the new token into the extension's config.
      refreshing.writeConfig({
        proxyUrl: proxy.url,
        proxyToken: await tokenFor('user-faults', '1h'),
        browserName: name,
      });
      const second = await waitFor(
        async () => {
          const id = await idOf();
          return id !== undefined && id !== first && id;
        },
        10_000,
        'the browser to reconnect with the new token',
      );
      assert.notEqual(second, first);
      raw.close();
    } finally {
      await refreshing.close();
    }
  });
});
