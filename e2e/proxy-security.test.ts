// Issue 13 finding 7, in real Chromium: one page with 1.2 MB of tools must not stop remote agents connecting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ProxyServer, silentLogger, startProxy } from '@tabmcp/proxy';
import { textOf } from '../test-support/harness';
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

const BROWSER = 'Heavy Chromium';

describe('proxy mode: a page with more tools than one proxy frame holds', () => {
  let site: TestSite;
  let proxy: ProxyServer;
  let browser: ProxyBrowser | undefined;
  const agents: ProxyTabmcp[] = [];
  let token: string;

  before(async () => {
    site = await startTestSite();
    proxy = await startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger });
    token = await tokenFor('user-heavy');
    browser = await launchProxyBrowser({ proxyUrl: proxy.url, proxyToken: token, browserName: BROWSER });
  });

  after(async () => {
    for (const agent of agents) await agent.close();
    await browser?.close();
    await proxy?.close();
    await site?.close();
  });

  it('connect_browser still works, and a 200 KB tool list arrives through listPageTools', async () => {
    const first = await startProxyTabmcp(proxy.url, token, ['--browser-name', BROWSER]);
    agents.push(first);
    const connected = await first.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    // 150 × 8,000 characters: more than the proxy's 1 MB frame limit on its own.
    const heavy = await first.call('open_tab', { url: site.heavyUrl(150) });
    assert.notEqual(heavy.isError, true, textOf(heavy));
    // 25 × 8,000: over getTabs' inline budget, under the frame limit: its tools come through listPageTools.
    await openTabWithTool(first, site.heavyUrl(25), 't25_0');

    // A second agent connects while both pages are open: getTabs used to carry every tool and overflow.
    const second = await startProxyTabmcp(proxy.url, token, ['--browser-name', BROWSER]);
    agents.push(second);
    const again = await second.call('connect_browser');
    assert.notEqual(again.isError, true, textOf(again));
    const tabs = await second.call('list_tabs');
    assert.match(textOf(tabs), /n=150/);
    assert.match(textOf(tabs), /n=25/);
  });
});
