import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { pageWithUrl } from '../test-support/cdp';
import { waitCallInFlight } from '../test-support/echo-page';
import { jsonOf, type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';
import { type LaunchedTabmcp, startLaunchedTabmcp } from '../test-support/launched-tabmcp';

describe('fault: the tab goes away under a page tool call in flight', () => {
  let launched: LaunchedTabmcp;
  let tabmcp: TabmcpUnderTest;

  const openBenchTab = async (query: string): Promise<{ tabId: number; page: Page }> => {
    const opened = await launched.openEchoTab(query);
    const tabId = jsonOf<{ tab: { id: number } }>(opened).tab.id;
    assert.ok((await tabmcp.toolNames()).includes('wait'));
    const page = await pageWithUrl(await tabmcp.cdp(), `/echo.html?${query}`, 5_000);
    return { tabId, page };
  };

  /** Starts a call that the page answers only after 2 s, and waits until the page has begun it. */
  const callInFlight = async (page: Page) => {
    const { call } = await waitCallInFlight(tabmcp, page);
    return { pending: call };
  };

  before(async () => {
    launched = await startLaunchedTabmcp();
    tabmcp = launched.tabmcp;
  });

  after(() => launched?.close());

  it('a reload answers the call with a clear error, and the page tools come back', async () => {
    const { page } = await openBenchTab('reload');
    const { pending: inFlight } = await callInFlight(page);
    await page.reload();
    const result = await inFlight;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /wait/);
    assert.doesNotMatch(textOf(result), /timed out|timeout/i);
    // Issue 27 D1: the call reached the page, so it may have run: no advice to repeat it.
    assert.match(textOf(result), /may have run/);
    assert.doesNotMatch(textOf(result), /try again/i);
    // The list keeps the tab's tools through a reload (navigation grace), so "listed" is not yet
    // "answering": wait until the reloaded page answers, as an agent told to try again would.
    const echoed = await waitFor(
      async () => {
        const result = await tabmcp.call('echo', { text: 'after reload' });
        return result.isError === true ? undefined : result;
      },
      10_000,
      'the reloaded page to answer echo',
    );
    assert.match(textOf(echoed), /after reload/);
  });

  it('closing the tab answers the call with a clear error and removes the tab', async () => {
    const { tabId, page } = await openBenchTab('close');
    const { pending: inFlight } = await callInFlight(page);
    const changed = tabmcp.nextListChanged();
    await page.close();
    const result = await inFlight;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /list_tabs|closed|gone/i);
    assert.doesNotMatch(textOf(result), /timed out|timeout/i);
    await changed;
    const tabs = jsonOf<{ tabs: Array<{ id: number }> }>(await tabmcp.call('list_tabs'));
    assert.ok(!tabs.tabs.some((tab) => tab.id === tabId));
  });
});
