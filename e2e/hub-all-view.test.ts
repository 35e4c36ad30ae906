import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import type { Page } from 'playwright-core';
import { startExampleServer } from '../examples/serve';
import { pageWithUrl } from '../test-support/cdp';
import { startTabmcp, type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';
import { type HubSite, startHubSite } from '../test-support/hub-fixture';

/**
 * The hub in real Chromium through the `all` view: every tab's tools under docs/requirements.md#hub names,
 * routed by the extension's hub, driven by the official MCP SDK client over stdio.
 */
describe('hub: every tab of every allowed site, in real Chromium (--view all)', () => {
  let site: HubSite;
  let otherSite: HubSite;
  let tabmcp: TabmcpUnderTest;
  let domain = '';
  let otherDomain = '';
  let pendingDomain = '';

  before(async () => {
    site = await startHubSite('127.0.0.1');
    // 127.0.0.2 is not on the default allowlist (127.0.0.1, localhost, [::1]): a site to allow.
    otherSite = await startHubSite('127.0.0.2');
    domain = `127_0_0_1_${new URL(site.url('127.0.0.1')).port}`;
    otherDomain = `localhost_${new URL(site.url('localhost')).port}`;
    pendingDomain = `127_0_0_2_${new URL(otherSite.url('127.0.0.2')).port}`;
    tabmcp = await startTabmcp(['--view', 'all']);
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
  });

  after(async () => {
    await tabmcp?.close();
    await site?.close();
    await otherSite?.close();
  });

  const hubNames = async () => (await tabmcp.toolNames()).filter((name) => name.startsWith('website_tool_')).sort();
  const waitForNames = (check: (names: string[]) => boolean, what: string) =>
    waitFor(
      async () => {
        const names = await hubNames();
        return check(names) ? names : undefined;
      },
      15_000,
      what,
    );
  const open = async (url: string) => {
    const result = await tabmcp.call('open_tab', { url, focus: false });
    assert.notEqual(result.isError, true, textOf(result));
    return (result.structuredContent as { tab: { id: number } }).tab.id;
  };
  const pageWith = async (fragment: string): Promise<Page> => pageWithUrl(await tabmcp.cdp(), fragment);
  /** Which page each whoami name runs in, by calling every one: a list of names alone hides a swap. */
  const whoAnswers = async (): Promise<Record<string, string>> => {
    const answers: Record<string, string> = {};
    for (const name of (await hubNames()).filter((entry) => entry.endsWith('_whoami'))) {
      const result = await tabmcp.call(name);
      assert.notEqual(result.isError, true, textOf(result));
      answers[name] = (result.structuredContent as { label: string }).label;
    }
    return answers;
  };

  it('two tabs of one site and one of another: each tool under its own name, routed to its tab', async () => {
    await open(`${site.url('127.0.0.1')}/notes.html?label=one`);
    await open(`${site.url('127.0.0.1')}/notes.html?label=two`);
    await open(`${site.url('localhost')}/notes.html?label=three`);
    const names = await waitForNames(
      (list) => list.filter((name) => name.endsWith('_whoami')).length === 3,
      'three whoami tools',
    );
    assert.deepEqual(
      names.filter((name) => name.endsWith('_whoami')),
      [
        `website_tool_${domain}_tab1_whoami`,
        `website_tool_${domain}_tab2_whoami`,
        `website_tool_${otherDomain}_tab1_whoami`,
      ],
    );
    const labels = [];
    for (const name of names.filter((entry) => entry.endsWith('_whoami'))) {
      const result = await tabmcp.call(name);
      assert.notEqual(result.isError, true, textOf(result));
      labels.push((result.structuredContent as { label: string }).label);
    }
    assert.deepEqual(labels, ['one', 'two', 'three']);
    const tools = (await tabmcp.client.listTools()).tools;
    const whoami = tools.find((tool) => tool.name === `website_tool_${domain}_tab2_whoami`);
    assert.deepEqual(whoami?.outputSchema?.required, ['href'], 'schemas pass through whole');
    assert.equal(whoami?.annotations?.readOnlyHint, true);
    assert.match(whoami?.description ?? '', /^\[page http:\/\/127\.0\.0\.1:\d+, tab 2\] Which page answers/);
  });

  it('a page that adds a tool itself (after a click) reaches the client: list_changed, then the new tool', async () => {
    const page = await pageWith('label=two');
    const added = `website_tool_${domain}_tab2_added_by_click`;
    assert.ok(!(await hubNames()).includes(added));
    const changed = tabmcp.nextListChanged(15_000);
    await page.click('#add-tool');
    await changed;
    await waitForNames((list) => list.includes(added), 'the tool the page added');
    const result = await tabmcp.call(added);
    assert.notEqual(result.isError, true, textOf(result));
    assert.deepEqual(JSON.parse(textOf(result)), { clicked: true });
  });

  it('a site not yet allowed shows no tools until the user allows it in the popup', async () => {
    const tabId = await open(`${otherSite.url('127.0.0.2')}/notes.html?label=pending`);
    const listed = (await tabmcp.call('list_tabs')).structuredContent as {
      tabs: Array<{ id: number; toolCount: number; note?: string }>;
    };
    const pendingTab = listed.tabs.find((tab) => tab.id === tabId);
    assert.equal(pendingTab?.toolCount, 0);
    assert.match(pendingTab?.note ?? '', /the site is not allowed yet\. The user allows it in the tabmcp popup/);
    assert.ok(!(await hubNames()).some((name) => name.includes(pendingDomain)));
    const refused = await tabmcp.call(`website_tool_${pendingDomain}_tab1_whoami`);
    assert.equal(refused.isError, true);

    const browser = await tabmcp.cdp();
    const popup = await browser.contexts()[0]!.newPage();
    await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
    const allow = popup.locator('li', { hasText: '127.0.0.2' }).getByRole('button', { name: 'Allow site' });
    await allow.click();
    await waitForNames((list) => list.includes(`website_tool_${pendingDomain}_tab1_whoami`), 'the allowed site');
    const result = await tabmcp.call(`website_tool_${pendingDomain}_tab1_whoami`);
    assert.equal((result.structuredContent as { label: string }).label, 'pending');
    // The tab's tools and its site access reach the server as separate events.
    const allowedTab = await waitFor(
      async () => {
        const relisted = (await tabmcp.call('list_tabs')).structuredContent as {
          tabs: Array<{ id: number; toolCount: number; note?: string }>;
        };
        const tab = relisted.tabs.find((entry) => entry.id === tabId);
        return tab?.note === undefined ? tab : undefined;
      },
      5_000,
      'list_tabs without the note',
    );
    assert.equal(allowedTab.toolCount, 5, 'its three tools and the two reading tools');
    // The popup refreshes each second: wait for this test's own call in its list of calls (not any whoami).
    await popup.locator('#calls li', { hasText: 'whoami' }).first().waitFor({ timeout: 10_000 });
    assert.match(await popup.locator('#calls').innerText(), /whoami/, 'the popup lists the last calls');
    await popup.close();
  });

  it('closing a tab mid-call answers the call with a clear error', async () => {
    const page = await pageWith('label=two');
    const slowsBegun = () => page.evaluate(() => (window as Window & { slowsBegun?: number }).slowsBegun ?? 0);
    const begunBefore = await slowsBegun();
    const call = tabmcp.call(`website_tool_${domain}_tab2_slow`, { ms: 20_000 });
    // The tab goes once the page has begun the call.
    await waitFor(async () => (await slowsBegun()) > begunBefore, 5_000, 'the call to reach the page');
    await page.close();
    const result = await call;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /went away|closed/);
    assert.match(textOf(result), /not repeated in another tab/);
    await waitForNames((list) => !list.includes(`website_tool_${domain}_tab2_whoami`), 'tab 2 tools gone');
  });

  it('reloading pages brings back the same tools, not twice, each tab with its own number (issue 27 H1)', async () => {
    // Tab 2 closed above: a new tab of the site gets a number no tab had, never the freed 2.
    await open(`${site.url('127.0.0.1')}/notes.html?label=five`);
    await waitForNames((list) => list.includes(`website_tool_${domain}_tab3_whoami`), 'tab 3 of the site');
    const before = await hubNames();
    const answers = await whoAnswers();
    assert.equal(answers[`website_tool_${domain}_tab3_whoami`], 'five');
    for (const label of ['five', 'one']) {
      await (await pageWith(`label=${label}`)).reload();
      await waitFor(async () => (await whoAnswers())[`website_tool_${domain}_tab1_whoami`] === 'one', 15_000, label);
    }
    const after = await waitForNames((list) => list.length === before.length, 'tools after the reloads');
    assert.deepEqual(after, before);
    assert.deepEqual(await whoAnswers(), answers, 'every name runs in the same tab as before');
    assert.ok(!after.includes(`website_tool_${domain}_save_note`), 'no cached copy while a tab offers it');
    await (await pageWith('label=five')).close();
    await waitForNames((list) => !list.includes(`website_tool_${domain}_tab3_whoami`), 'tab 3 gone');
  });

  it('a cached tool called after its tab closed reopens its page and runs there', async () => {
    const page = await pageWith('label=one');
    await page.close();
    const cachedName = `website_tool_${domain}_save_note`;
    const names = await waitForNames((list) => !list.some((name) => name.includes(`${domain}_tab`)), 'tabs gone');
    assert.ok(names.includes(cachedName), `cached tool listed: ${names.join(' ')}`);
    const result = await tabmcp.call(cachedName, { text: 'remember me' });
    assert.notEqual(result.isError, true, textOf(result));
    const body = JSON.parse(textOf(result)) as { saved: string; href: string };
    assert.equal(body.saved, 'remember me');
    assert.match(body.href, /^http:\/\/127\.0\.0\.1:\d+\/notes\.html\?label=one$/, 'reopened at the cached URL');
    const reopened = await pageWith('label=one');
    assert.equal(await reopened.locator('#notes li').innerText(), 'remember me');
  });

  it('after the worker is stopped and restarts, each tab keeps its number: a call by the same name runs in the same tab', async () => {
    // A gap in the numbers: "four" opens after the reopened "one", then "one" closes. A worker that
    // renumbered would give "four" the lower number.
    const oneName = Object.entries(await whoAnswers()).find(([, label]) => label === 'one')?.[0] ?? '';
    await open(`${site.url('127.0.0.1')}/notes.html?label=four`);
    const isFour = (name: string) => name.includes(`${domain}_tab`) && name.endsWith('_whoami') && name !== oneName;
    const fourName = (await waitForNames((list) => list.some(isFour), 'the tab of "four"')).find(isFour) ?? '';
    assert.ok(oneName < fourName, `${oneName} before ${fourName}`);
    await (await pageWith('label=one')).close();
    const before = await waitForNames((list) => !list.includes(oneName), 'the reopened "one" gone');
    const answers = await whoAnswers();
    assert.equal(answers[fourName], 'four');
    const saveName = fourName.replace(/_whoami$/, '_save_note');
    assert.ok(before.includes(saveName), before.join(' '));
    // What the new worker restores from: the hub's state in chrome.storage.local.
    const extensionPage = await (await tabmcp.cdp()).contexts()[0]!.newPage();
    await extensionPage.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
    await waitFor(
      () =>
        extensionPage.evaluate(async () => {
          const value = (await chrome.storage.local.get('tabmcp.hub'))['tabmcp.hub'] as
            | { tabs: Array<{ url: string }> }
            | undefined;
          const urls = value?.tabs.map((tab) => tab.url) ?? [];
          return urls.some((url) => url.includes('label=four')) && !urls.some((url) => url.includes('label=one'));
        }),
      5_000,
      'the stored hub state',
    );
    await extensionPage.close();
    const upsBefore = tabmcp.stderr().split('link.up').length;
    const four = await pageWith('label=four');
    const cdp = await four.context().newCDPSession(four);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await waitFor(() => tabmcp.stderr().split('link.up').length > upsBefore, 20_000, 'the worker to dial in again');
    const result = await tabmcp.call(`website_tool_${otherDomain}_tab1_whoami`);
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal((result.structuredContent as { label: string }).label, 'three');
    // The page's content scripts register again while the worker restores: the numbers hold.
    assert.deepEqual(await waitForNames((list) => list.length === before.length, 'the same tools'), before);
    assert.deepEqual(await whoAnswers(), answers, 'every name runs in the same tab as before the restart');
    const saved = await tabmcp.call(saveName, { text: 'after the restart' });
    assert.notEqual(saved.isError, true, textOf(saved));
    // Over CDP: the note landed in tab "four", and in no other page.
    const notes = new Map<string, string>();
    for (const page of (await tabmcp.cdp()).contexts()[0]!.pages()) {
      if (page.url().includes('/notes.html')) notes.set(page.url(), await page.locator('#notes').innerText());
    }
    const changed = [...notes].filter(([, text]) => text.includes('after the restart')).map(([url]) => url);
    assert.deepEqual(changed.length, 1, JSON.stringify([...notes]));
    assert.match(changed[0] ?? '', /label=four$/);
    await cdp.detach();
  });

  it('a page that withdraws a cached tool: it leaves the list, and a call by its name fails at once', async () => {
    const four = await pageWith('label=four');
    const cachedName = `website_tool_${domain}_save_note`;
    await four.evaluate(() => (window as unknown as { dropSaveNote(): void }).dropSaveNote());
    await waitForNames(
      (list) => !list.some((name) => name.includes(`${domain}_tab`) && name.endsWith('_save_note')),
      'save_note withdrawn',
    );
    await four.close();
    const names = await waitForNames((list) => !list.some((name) => name.includes(`${domain}_tab`)), 'tab gone');
    assert.ok(!names.includes(cachedName), `no cached copy left: ${names.join(' ')}`);
    const pagesBefore = (await tabmcp.cdp()).contexts()[0]!.pages().length;
    const result = await tabmcp.call(cachedName, { text: 'too late' });
    assert.equal(result.isError, true);
    assert.doesNotMatch(textOf(result), /did not offer that tool/);
    assert.equal((await tabmcp.cdp()).contexts()[0]!.pages().length, pagesBefore, 'no tab was opened for it');
  });

  it("a page tool that navigates, called by its hub name: the answer gives the new page's URL, title and hub names", async () => {
    const examples = await startExampleServer();
    try {
      const shop = `127_0_0_1_${new URL(examples.url).port}`;
      await open(`${examples.url}/dom-patterns/checkout.html`);
      const checkout = await pageWith('/dom-patterns/checkout.html');
      const placeOrder = `website_tool_${shop}_tab1_place_order`;
      await waitForNames((list) => list.includes(placeOrder), 'the checkout tool');
      const placed = await tabmcp.call(placeOrder);
      assert.notEqual(placed.isError, true, textOf(placed));
      const [own, arrived] = placed.content as Array<{ text: string }>;
      assert.equal(own?.text, 'Order placed');
      const page = JSON.parse(arrived?.text.replace(/^\[tabmcp report[^\]]*\] /, '') ?? '{}') as {
        url?: string;
        title?: string;
        tools?: string[];
      };
      assert.match(page.url ?? '', /\/dom-patterns\/orders\.html$/, JSON.stringify(page));
      assert.equal(page.title, 'Your orders');
      // Named as this view calls them; the reading tools are there whichever tools came first.
      const read = `website_tool_${shop}_tab1_get_page_content`;
      assert.ok(page.tools?.includes(read), JSON.stringify(page));
      // Over CDP: the tab that ran the tool is the one that went to the orders page.
      assert.match(checkout.url(), /\/dom-patterns\/orders\.html$/);
      assert.equal(await checkout.evaluate(() => document.title), 'Your orders');
      // The name the answer gave is callable and reads the new page.
      const content = await tabmcp.call(read);
      assert.match(textOf(content), /awaiting payment/);
    } finally {
      await examples.close();
    }
  });
});
