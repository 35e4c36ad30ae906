import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import type { ExampleServer } from '../examples/serve';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, browserOf, pageWithUrl, type Scene, startAgent, startScene } from '../test-support/server-harness';

type Tabs = {
  tabs: Array<{ id: number; url: string; focused: boolean; toolCount: number }>;
  focusedTabId: number | null;
};

/** docs/requirements.md, "Edge Cases": every row, driven by a person's actions in the real browser. */
describe('Edge Cases table', () => {
  let scene: Scene;
  let site: ExampleServer;
  let agent: Agent;
  /** A second agent on the same browser that follows the user's tab switches (--follow-focus). */
  let follower: Agent;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    scene = await startScene(['--launch']);
    ({ site, agent } = scene);
    follower = await startAgent(scene.machine, ['--follow-focus']);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await follower?.close();
    await scene?.close();
  });

  it('Extension connects to WebSocket: ready for connect_browser', async () => {
    // --launch starts Chromium at a first connect_browser: the follower's launches it, and the
    // extension's hello reaches the agent's process, which owns the port.
    assert.equal((await follower.json<{ connected: boolean }>('connect_browser', { launch: true })).connected, true);
    await waitFor(() => /"event":"link.hello"/.test(agent.stderr()), 20_000, 'the extension to connect');
    assert.deepEqual(await agent.toolNames(), ['connect_browser']);
    const changed = agent.nextListChanged();
    const connected = await agent.json<{ connected: boolean; tabCount: number }>('connect_browser');
    assert.equal(connected.connected, true);
    await changed;
    browser = await browserOf(follower);
    context = browser.contexts()[0] as BrowserContext;
  });

  it('open_tab with an invalid URL: error, no state change', async () => {
    const names = await agent.toolNames();
    const count = agent.listChangedCount();
    for (const url of ['not a url', 'javascript:alert(1)', 'chrome://settings']) {
      const result = await agent.call('open_tab', { url });
      assert.equal(result.isError, true, url);
      assert.match(textOf(result), /Invalid URL|Refusing to open/);
    }
    assert.deepEqual(await agent.toolNames(), names);
    assert.equal(agent.listChangedCount(), count);
  });

  let shopTab = 0;
  it('focus_tab with an invalid ID: error, no state change', async () => {
    shopTab = (await agent.json<{ tab: { id: number } }>('open_tab', { url: `${site.url}/shop/` })).tab.id;
    const names = await agent.toolNames();
    const count = agent.listChangedCount();
    const result = await agent.call('focus_tab', { tabId: 987_654_321 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /No tab with id 987654321\. Open tabs: .*Call list_tabs/);
    assert.deepEqual(await agent.toolNames(), names);
    assert.equal((await agent.json<Tabs>('list_tabs')).focusedTabId, shopTab);
    assert.equal(agent.listChangedCount(), count);
  });

  let userTab = 0;
  it('User opens new tab in browser: added to tabs, no list_changed', async () => {
    const count = agent.listChangedCount();
    const page = await context.newPage();
    await page.goto(`${site.url}/skyhop/?opened-by-user`);
    const tabs = await waitFor(
      async () => {
        const listed = await agent.json<Tabs>('list_tabs');
        // SkyHop's three tools and the two reading tools.
        return listed.tabs.some((tab) => tab.url.includes('opened-by-user') && tab.toolCount === 5) && listed;
      },
      10_000,
      'the new tab in list_tabs',
    );
    userTab = tabs.tabs.find((tab) => tab.url.includes('opened-by-user'))?.id ?? 0;
    assert.equal(tabs.focusedTabId, shopTab, 'focus did not move');
    assert.equal(agent.listChangedCount(), count);
  });

  it('User switches tab in browser: ignored by default, followed with --follow-focus', async () => {
    await follower.json('focus_tab', { tabId: shopTab });
    const count = agent.listChangedCount();
    const followed = follower.nextListChanged();
    const page = await pageWithUrl(browser, 'opened-by-user');
    await page.bringToFront();
    await followed;
    assert.equal((await follower.json<Tabs>('list_tabs')).focusedTabId, userTab);
    assert.ok((await follower.toolNames()).includes('search_flights'));
    assert.equal((await agent.json<Tabs>('list_tabs')).focusedTabId, shopTab);
    assert.equal(agent.listChangedCount(), count);
  });

  it('Page navigates (same tab): tools read again, list_changed only if they changed', async () => {
    const shop = await pageWithUrl(browser, '/shop/');
    let count = agent.listChangedCount();
    await shop.reload();
    // The reloaded page answers through its new content script: the tools were read again.
    await waitFor(
      async () => /Teapot/.test(textOf(await agent.call('search_products', { query: 'tea' }))),
      10_000,
      'the reloaded page to answer',
    );
    assert.equal(agent.listChangedCount(), count, 'same tools after a reload: no list_changed');
    count = agent.listChangedCount();
    const changed = agent.nextListChanged();
    await shop.goto(`${site.url}/codehub/`);
    await changed;
    await waitFor(async () => (await agent.toolNames()).includes('star_repo'), 10_000, 'the new page tools');
    assert.ok(!(await agent.toolNames()).includes('add_to_cart'));
  });

  it('User closes focused tab in browser: list_changed, focusedTabId null, page tools gone', async () => {
    const changed = agent.nextListChanged();
    await (await pageWithUrl(browser, '/codehub/')).close();
    await changed;
    const tabs = await agent.json<Tabs>('list_tabs');
    assert.equal(tabs.focusedTabId, null);
    assert.ok(!tabs.tabs.some((tab) => tab.id === shopTab));
    assert.deepEqual(await agent.toolNames(), ['list_tabs', 'open_tab', 'focus_tab']);
  });

  it('Tab crashes: removed from tabs, list_changed when it was focused', async () => {
    await agent.json('focus_tab', { tabId: userTab });
    assert.ok((await agent.toolNames()).includes('search_flights'));
    const changed = agent.nextListChanged();
    const page = await pageWithUrl(browser, 'opened-by-user');
    const session = await context.newCDPSession(page);
    // The crashed renderer never answers this command.
    void session.send('Page.crash').catch(() => {});
    await changed;
    const names = await agent.toolNames();
    assert.ok(!names.includes('search_flights'), `${names}`);
    const call = await agent.call('search_flights', { from: 'SFO', to: 'NYC', departDate: '2024-01-19' });
    assert.equal(call.isError, true);
    await waitFor(
      async () => !(await agent.json<Tabs>('list_tabs')).tabs.some((tab) => tab.id === userTab),
      5_000,
      'the crashed tab to leave list_tabs',
    );
    assert.equal((await agent.json<Tabs>('list_tabs')).focusedTabId, null);
  });

  it('close_tab on the last tab: CONNECTED (no tabs)', async () => {
    const tabs = await agent.json<Tabs>('list_tabs');
    // Keep one tab open for the browser window, open by the agent, then close the others and it.
    const last = await agent.json<{ tab: { id: number } }>('open_tab', { url: `${site.url}/codehub/` });
    for (const tab of tabs.tabs) {
      await agent.json('focus_tab', { tabId: tab.id });
      await agent.json('close_tab');
    }
    await agent.json('focus_tab', { tabId: last.tab.id });
    // A DevTools client would keep a windowless browser alive: none is attached from here on.
    await browser.close();
    const changed = agent.nextListChanged();
    assert.deepEqual(await agent.json('close_tab'), { closed: true, tabId: last.tab.id });
    await changed;
    assert.deepEqual(await agent.toolNames(), ['list_tabs', 'open_tab']);
    assert.deepEqual((await agent.json<Tabs>('list_tabs')).tabs, []);
    // The browser is still there for the next page (e2e/server-last-tab.test.ts checks its window).
    const reopened = await agent.json<{ tab: { id: number } }>('open_tab', { url: `${site.url}/codehub/` });
    await agent.json('focus_tab', { tabId: reopened.tab.id });
    await agent.json('close_tab');
    browser = await browserOf(follower);
  });

  it('Extension disconnects (the browser closes): DISCONNECTED with one list_changed', async () => {
    // A focused tab with tools: its closing and the link's would each change the list.
    await agent.json('open_tab', { url: `${site.url}/codehub/` });
    await waitFor(async () => (await agent.toolNames()).length > 3 || undefined, 10_000, 'the page tools');
    const count = agent.listChangedCount();
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.close').catch(() => {});
    await waitFor(
      async () => (await agent.toolNames()).join() === 'connect_browser' || undefined,
      20_000,
      'DISCONNECTED',
    );
    // Every notification of the transition was written before the answer to tools/list.
    assert.equal(agent.listChangedCount() - count, 1);
    const result = await agent.call('list_tabs');
    assert.match(textOf(result), /call connect_browser first/);
  });
});
