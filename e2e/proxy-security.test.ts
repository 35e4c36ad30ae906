// Issue 13 finding 7, in real Chromium: one page with 1.2 MB of tools must not stop remote agents connecting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ProxyServer, silentLogger, startProxy } from '@tabmcp/proxy';
import { textOf } from '../test-support/harness';
import { SECRET, tokenFor } from '../test-support/proxy/fixtures';
import {
  callUntilOk,
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

  it('a tab full to its tool cap still lists remotely: the cap stays under the proxy frame limit', async () => {
    const [agent] = agents;
    assert.ok(agent, 'the first test started an agent');
    // 150 × 8,000 characters: the hub keeps what fits its per-tab cap, and all of that must pass one frame.
    await openTabWithTool(agent, site.heavyUrl(150), 't150_0');
    const names = await agent.toolNames();
    assert.ok(names.includes('euros'), names.join(', '));
  });

  it('an answer over the frame limit is refused with its size in UTF-8 bytes, and the link stays up', async () => {
    const [agent] = agents;
    assert.ok(agent, 'the first test started an agent');
    // 400,000 "€": 400,000 UTF-16 units, 1.2 MB of UTF-8.
    const big = await agent.call('euros', { count: 400_000 });
    assert.equal(big.isError, true, textOf(big).slice(0, 200));
    const bytes = Number(/The answer is (\d+) bytes/.exec(textOf(big))?.[1]);
    assert.ok(bytes >= 1_200_000, textOf(big));
    assert.doesNotMatch(textOf(big), /quality/);
    const small = await callUntilOk(agent, 'euros', { count: 3 }, 10_000);
    assert.match(textOf(small), /€€€/);
  });
});
