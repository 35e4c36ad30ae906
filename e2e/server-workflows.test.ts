import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import type { Browser } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { textOf } from '../test-support/harness';
import {
  type Agent,
  browserOf,
  callWithProgress,
  pageWithUrl,
  type Scene,
  startScene,
} from '../test-support/server-harness';

type Tabs = {
  tabs: Array<{ id: number; title: string; url: string; focused: boolean; toolCount: number }>;
  focusedTabId: number | null;
};

describe("docs/requirements.md#local-server's example workflows, in real Chromium", () => {
  let scene: Scene;
  let site: ExampleServer;
  let agent: Agent;
  let browser: Browser;

  before(async () => {
    scene = await startScene();
    ({ site, agent } = scene);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await scene?.close();
  });

  it('Single Tab Workflow: connect_browser, open_tab on the repository, star_repo', async () => {
    assert.deepEqual(await agent.toolNames(), ['connect_browser']);
    let changed = agent.nextListChanged(30_000);
    const connected = await callWithProgress(agent, 'connect_browser', { launch: true });
    assert.notEqual(connected.result.isError, true, textOf(connected.result));
    assert.ok(
      connected.messages.some((message) => /Launching/.test(message)),
      `progress: ${connected.messages}`,
    );
    await changed;
    // A launched Chromium shows one blank tab, so focus_tab is there too (CONNECTED, tabs, none focused).
    assert.deepEqual(await agent.toolNames(), ['list_tabs', 'open_tab', 'focus_tab']);

    changed = agent.nextListChanged();
    const opened = await callWithProgress(agent, 'open_tab', { url: `${site.url}/codehub/`, focus: true });
    const body = JSON.parse(textOf(opened.result)) as {
      tab: { id: number };
      focused: boolean;
      toolCount: number;
    };
    assert.ok(
      opened.messages.some((message) => message.startsWith('Opening')),
      `progress: ${opened.messages}`,
    );
    assert.equal(body.focused, true);
    assert.equal(body.toolCount, 7, 'the list_changed brings the names');
    await changed;
    const names = await agent.toolNames();
    assert.deepEqual(names, [
      'list_tabs',
      'open_tab',
      'focus_tab',
      'close_tab',
      'star_repo',
      'watch_repo',
      'fork_repo',
      'view_issues',
      'run_checks',
      'get_page_content',
      'open_link',
    ]);

    const starred = await agent.json<{ starred: boolean; stars: number }>('star_repo');
    assert.deepEqual(starred, { starred: true, stars: 41201 });
    browser = await browserOf(agent);
    const page = await pageWithUrl(browser, '/codehub/');
    assert.equal(await page.textContent('#starred'), 'starred by you');
  });

  it('Multi-Tab Comparison: search_flights on two sites, list_tabs, focus_tab, compare', async () => {
    const skyhop = await agent.json<{ tab: { id: number } }>('open_tab', { url: `${site.url}/skyhop/` });
    // FareFinder publishes nothing: its search_flights is derived from its form.
    const notified = agent.listChangedCount();
    const farefinder = await agent.json<{ tab: { id: number }; toolsAvailable: string[] }>('open_tab', {
      url: `${site.url}/farefinder/`,
      focus: false,
    });
    assert.ok(farefinder.toolsAvailable.includes('search_flights'), `${farefinder.toolsAvailable}`);
    // `act` is offered only by DOM-derived tools: FareFinder's, not SkyHop's.
    assert.ok(!(await agent.toolNames()).includes('act'), 'an unfocused tab does not load its tools');

    const first = await agent.json<{ cheapest: number }>('search_flights', {
      from: 'SFO',
      to: 'NYC',
      departDate: '2024-01-19',
    });
    assert.equal(first.cheapest, 450);

    const tabs = await agent.json<Tabs>('list_tabs');
    assert.equal(tabs.focusedTabId, skyhop.tab.id);
    const kayak = tabs.tabs.find((tab) => tab.id === farefinder.tab.id);
    assert.ok(kayak && !kayak.focused && kayak.toolCount >= 2, JSON.stringify(tabs));
    assert.equal(tabs.tabs.find((tab) => tab.id === skyhop.tab.id)?.toolCount, 5);
    // FareFinder's tab loaded and published its tools by now (toolCount above), and every
    // notification sent before an answer arrives before it: opening it unfocused announced nothing.
    assert.equal(agent.listChangedCount(), notified, 'no tools/list_changed for open_tab(focus=false)');

    const changed = agent.nextListChanged();
    const focused = await agent.json<{ success: boolean; toolCount: number }>('focus_tab', {
      tabId: farefinder.tab.id,
    });
    await changed;
    assert.equal(focused.success, true);
    const names = await agent.toolNames();
    assert.ok(names.includes('search_flights') && names.includes('get_page_content'), `${names}`);
    assert.ok(!names.includes('select_flight'), 'the previous tab tools are gone');

    const second = await agent.json<{ submitted: boolean; note?: string; changes: string }>('search_flights', {
      from: 'SFO',
      to: 'NYC',
      departDate: '2024-01-19',
    });
    // FareFinder searches in script (its submit handler cancels the browser's submission): the answer says
    // so, and its changes carry the results (decisions: "Read back after every action").
    assert.equal(second.submitted, false, JSON.stringify(second));
    assert.match(second.note ?? '', /handled it itself/);
    const prices = [...second.changes.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
    assert.equal(Math.min(...prices), 520, second.changes);
    assert.equal(520 - first.cheapest, 70, 'SkyHop is cheaper by $70');
  });

  it('A site not allowed yet: its tools held back with the reason, then the user allows it', async () => {
    // 127.0.0.2 is loopback but not on the default allowlist (127.0.0.1, localhost, [::1]).
    const other = await startExampleServer(0, '127.0.0.2');
    try {
      const opened = await agent.json<{ tab: { id: number }; toolCount: number }>('open_tab', {
        url: `${other.url}/codehub/`,
        focus: true,
      });
      assert.equal(opened.toolCount, 0);
      assert.ok(!(await agent.toolNames()).includes('star_repo'));
      const listed = await agent.json<{ tabs: Array<{ id: number; toolCount: number; note?: string }> }>('list_tabs');
      const held = listed.tabs.find((tab) => tab.id === opened.tab.id);
      assert.equal(held?.toolCount, 0);
      assert.match(held?.note ?? '', /not allowed yet\. The user allows it in the tabmcp popup/);

      const changed = agent.nextListChanged();
      const popup = await browser.contexts()[0]!.newPage();
      await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
      await popup.locator('li', { hasText: '127.0.0.2' }).getByRole('button', { name: 'Allow site' }).click();
      // Closing the popup's tab would activate the shop's, which reports its tools anew: only after.
      await changed;
      await popup.close();
      assert.ok((await agent.toolNames()).includes('star_repo'));
      const starred = await agent.json<{ starred: boolean }>('star_repo');
      assert.equal(starred.starred, true);
      const page = await pageWithUrl(browser, `${other.url}/codehub/`);
      assert.equal(await page.textContent('#starred'), 'starred by you');
    } finally {
      await other.close();
    }
  });
});
