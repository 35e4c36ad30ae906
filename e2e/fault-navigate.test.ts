import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { pageWithUrl } from '../test-support/cdp';
import { jsonOf, textOf, waitFor } from '../test-support/harness';
import { type LaunchedTabmcp, startLaunchedTabmcp } from '../test-support/launched-tabmcp';

type Tabs = { focusedTabId: number | null; tabs: Array<{ id: number; url: string }> };

/** Starts a call the echo page answers only after 2 s and lets it reach the page (wrapped: awaiting this does not wait for it). */
async function callInFlight(
  tabmcp: LaunchedTabmcp['tabmcp'],
  page: Page,
): Promise<{ answer: Promise<CallToolResult> }> {
  // The bench page counts the waits it began: the call has reached the page once the count moves.
  const begun = () => page.evaluate(() => (window as Window & { waitsBegun?: number }).waitsBegun ?? 0);
  const before = await begun();
  const answer = tabmcp.call('wait', { ms: 2_000 });
  await waitFor(async () => (await begun()) > before || undefined, 10_000, 'the call to reach the page');
  return { answer };
}

/** Issue 7, "navigate away": the page that is answering a call is left for another document. */
describe('fault: the page navigates away under a page tool call in flight', () => {
  let launched: LaunchedTabmcp;

  const openEchoPage = async (query: string): Promise<{ tabId: number; page: Page }> => {
    const opened = await launched.openEchoTab(query);
    const tabId = jsonOf<{ tab: { id: number } }>(opened).tab.id;
    assert.ok((await launched.tabmcp.toolNames()).includes('wait'));
    const page = await pageWithUrl(await launched.tabmcp.cdp(), `?${query}`);
    return { tabId, page };
  };

  before(async () => {
    launched = await startLaunchedTabmcp();
  });

  after(async () => {
    await launched?.close();
  });

  it('answers the call with a clear error, follows the tab to its new page, and recovers on the way back', async () => {
    const { tabmcp, site } = launched;
    const { tabId, page } = await openEchoPage('leave');
    const { answer } = await callInFlight(tabmcp, page);
    const changed = tabmcp.nextListChanged();
    // A document without the bench page's tools (the bench site answers 404 in plain text).
    await page.goto(`${site.url}/elsewhere`);

    const result = await answer;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /"wait".*went away \(closed, reloaded or navigated\)/);
    assert.match(textOf(result), /list_tabs/);
    assert.doesNotMatch(textOf(result), /timed out|timeout|did not answer within/i);

    await changed;
    await waitFor(async () => !(await tabmcp.toolNames()).includes('wait'), 10_000, "the old page's tools to go");
    const tabs = jsonOf<Tabs>(await tabmcp.call('list_tabs'));
    assert.equal(tabs.focusedTabId, tabId, 'the tab stays focused across its navigation');
    assert.match(tabs.tabs.find((tab) => tab.id === tabId)?.url ?? '', /\/elsewhere$/);
    const stale = await tabmcp.call('wait', { ms: 0 });
    assert.equal(stale.isError, true, 'the old page tool is gone with its page');

    await page.goto(`${site.url}/echo.html?again`);
    await waitFor(async () => (await tabmcp.toolNames()).includes('echo'), 10_000, 'the page tools to come back');
    const echoed = await tabmcp.call('echo', { text: 'back again' });
    assert.notEqual(echoed.isError, true, textOf(echoed));
    assert.match(textOf(echoed), /back again/);
  });

  it('Back restores the page from the back/forward cache with its tools', async () => {
    const { tabmcp, site } = launched;
    const { page } = await openEchoPage('cached');
    // A reload or a fresh load would lose this; only a document restored from the cache keeps it.
    await page.evaluate(() => Object.assign(window, { keptInCache: true }));
    await page.goto(`${site.url}/elsewhere`);
    await waitFor(async () => !(await tabmcp.toolNames()).includes('echo'), 10_000, "the old page's tools to go");
    // No load event on a bfcache restore: wait for the commit only.
    await page.goBack({ waitUntil: 'commit' });
    const restored = await page.evaluate(() => (window as Window & { keptInCache?: boolean }).keptInCache === true);
    assert.equal(restored, true, 'Back restored the same document from the back/forward cache, not a reload');
    await waitFor(async () => (await tabmcp.toolNames()).includes('echo'), 5_000, 'the restored page tools');
    assert.match(textOf(await tabmcp.call('echo', { text: 'restored' })), /restored/);
  });

  it('a same-document navigation (history.pushState) does not disturb the call in flight', async () => {
    const { tabmcp } = launched;
    const { page } = await openEchoPage('push');
    const { answer } = await callInFlight(tabmcp, page);
    await page.evaluate(() => history.pushState({}, '', '?pushed'));
    const result = await answer;
    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /"waited":\s*2000/);
    const echoed = await tabmcp.call('echo', { text: 'same page' });
    assert.match(textOf(echoed), /same page/);
  });
});
