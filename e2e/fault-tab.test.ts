import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type BenchSite, startBenchSite } from '../bench/lib/bench-site';
import { jsonOf, startTabmcp, type TabmcpUnderTest, textOf, waitFor } from './harness';

describe('fault: the tab goes away under a page tool call in flight', () => {
  let site: BenchSite;
  let tabmcp: TabmcpUnderTest;

  const openBenchTab = async (query: string): Promise<{ tabId: number; page: Page }> => {
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/echo.html?${query}` });
    assert.notEqual(opened.isError, true, textOf(opened));
    const tabId = jsonOf<{ tab: { id: number } }>(opened).tab.id;
    assert.ok((await tabmcp.toolNames()).includes('wait'));
    const browser = await tabmcp.cdp();
    const page = await waitFor(
      () =>
        browser
          .contexts()
          .flatMap((context) => context.pages())
          .find((candidate) => candidate.url().endsWith(`?${query}`)),
      5_000,
      `the ${query} page in the launched browser`,
    );
    return { tabId, page };
  };

  /** Starts a call that the page answers only after 2 s, and lets it reach the page. */
  const callInFlight = async () => {
    const pending = tabmcp.call('wait', { ms: 2_000 });
    await new Promise((done) => setTimeout(done, 300));
    return pending;
  };

  before(async () => {
    site = await startBenchSite();
    tabmcp = await startTabmcp();
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
  });

  after(async () => {
    await tabmcp?.close();
    await site?.close();
  });

  it('a reload answers the call with a clear error, and the page tools come back', async () => {
    const { page } = await openBenchTab('reload');
    const inFlight = callInFlight();
    await page.reload();
    const result = await inFlight;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /wait/);
    assert.doesNotMatch(textOf(result), /timed out|timeout/i);
    await waitFor(async () => (await tabmcp.toolNames()).includes('echo'), 10_000, 'the reloaded page tools');
    const echoed = await tabmcp.call('echo', { text: 'after reload' });
    assert.notEqual(echoed.isError, true, textOf(echoed));
  });

  it('closing the tab answers the call with a clear error and removes the tab', async () => {
    const { tabId, page } = await openBenchTab('close');
    const inFlight = callInFlight();
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
