import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { textOf, waitFor } from '../test-support/harness';
import { freePort } from '../test-support/net';
import { launchedSceneForTests } from '../test-support/server-harness';

type Done = { done: string; changes?: string; removed?: string; url?: string; title?: string; navigating?: boolean };
type Opened = { tab: { id: number; url: string }; toolCount: number };

/**
 * Issue 24: whether a call started a navigation is read from the browser's own events (the
 * Navigation API in the page, webNavigation in the extension), not guessed with a grace timer.
 * Each path: a page tool that navigates is reported; a download, a mailto: or tel: link, a
 * same-document change, the page's own fake unload events and a ticking clock are not; open_tab
 * of an unreachable address fails with the browser's load error. What happened is checked on the
 * page over CDP as well as in the answer.
 */

/** The report block a page's own answer is followed by: tabmcp's marker, then one JSON object. */
function reportOf(text: string | undefined): { url?: string; title?: string } {
  assert.ok(text?.startsWith('[tabmcp report:'), `a tabmcp report block, got: ${text}`);
  if (text === undefined) return {};
  return JSON.parse(text.slice(text.indexOf('] ') + 2)) as { url?: string; title?: string };
}

/** Page text in an answer starts with tabmcp's mark naming the page's origin. */
function withoutPageMark(text: string | undefined): string | undefined {
  return text?.replace(/^\[page text from [^\]]+\] /, '');
}

describe('events: what is a navigation, and what an action changed', () => {
  const scene = launchedSceneForTests();
  const { open, toolNamed } = scene;
  /** The clock ticked a few times since the tab's tools were derived: it has been seen ticking on its own. */
  const clockTicked = async (page: Page, seconds = 0.3) => {
    const clockAt = () =>
      page.evaluate(() =>
        Number(/Running for ([\d.]+)/.exec(document.getElementById('clock')?.textContent ?? '')?.[1] ?? 0),
      );
    const from = await clockAt();
    await waitFor(async () => (await clockAt()) >= from + seconds || undefined, 10_000, 'the clock to tick');
  };
  const linksPage = async () => {
    const page = await open('/events/links.html');
    await toolNamed('add_one');
    return page;
  };

  it("a page's own tool with no annotations that navigates after answering: the answer says where the tab went", async () => {
    await open('/events/tool.html');
    await toolNamed('go_next');
    const answer = await scene.agent.call('go_next');
    assert.notEqual(answer.isError, true, textOf(answer));
    const [own, arrived] = answer.content as Array<{ text: string }>;
    assert.equal(own?.text, 'Going');
    const where = reportOf(arrived?.text);
    assert.match(where.url ?? '', /\/events\/next\.html$/, arrived?.text);
    assert.equal(where.title, 'Events: the next page');
  });

  it('a navigation that follows a request the tool made is its navigation too', async () => {
    await open('/events/tool.html');
    await toolNamed('save_then_go');
    const answer = await scene.agent.call('save_then_go');
    const [own, arrived] = answer.content as Array<{ text: string }>;
    assert.equal(own?.text, 'Saving');
    assert.match(reportOf(arrived?.text).url ?? '', /\/events\/next\.html$/, arrived?.text);
  });

  it('unload events the page dispatches itself are not a navigation, nor is pushState', async () => {
    const page = await open('/events/tool.html');
    await toolNamed('fake_unload');
    const faked = await scene.agent.call('fake_unload');
    assert.deepEqual(faked.content, [{ type: 'text', text: 'Stayed' }]);
    const pushed = await scene.agent.call('push_state');
    assert.deepEqual(pushed.content, [{ type: 'text', text: 'Pushed' }]);
    assert.match(await page.evaluate(() => location.href), /\/events\/tool\.html\?page=2$/);
  });

  it('a derived link click that loads another page is reported with the new page', async () => {
    const page = await linksPage();
    const followed = await scene.agent.json<Done>('open_link', { text: 'Next page' });
    assert.match(followed.url ?? '', /\/events\/next\.html$/, JSON.stringify(followed));
    assert.equal(followed.title, 'Events: the next page');
    assert.equal(followed.navigating, undefined);
    assert.equal(followed.changes, undefined, 'the changes of the page it left are not reported');
    assert.match(page.url(), /\/events\/next\.html$/);
  });

  it('a download link is not a navigation: the page stays and the answer is the action', async () => {
    const page = await linksPage();
    const download = page.waitForEvent('download');
    const followed = await scene.agent.json<Done>('open_link', { text: 'Download the report' });
    assert.equal((await download).suggestedFilename(), 'report.csv');
    assert.equal(followed.navigating, undefined, JSON.stringify(followed));
    assert.equal(followed.url, undefined);
    assert.match(page.url(), /\/events\/links\.html\?tab=\d+$/);
  });

  for (const [link, scheme] of [
    ['Write to us', 'mailto:'],
    ['Call us', 'tel:'],
  ] as const) {
    it(`a ${scheme} link is not a navigation: the page stays and its tools keep answering`, async () => {
      const page = await linksPage();
      const followed = await scene.agent.json<Done>('open_link', { text: link });
      assert.equal(followed.navigating, undefined, JSON.stringify(followed));
      assert.equal(followed.url, undefined);
      assert.match(page.url(), /\/events\/links\.html\?tab=\d+$/);
      const added = await scene.agent.json<Done>('add_one');
      assert.match(added.changes ?? '', /Count: 1/);
    });
  }

  it('a same-document change (pushState) reports its changes and new address, not a navigation', async () => {
    const page = await linksPage();
    const shown = await scene.agent.json<Done>('show_page_two');
    assert.match(shown.changes ?? '', /Page two/);
    assert.match(shown.url ?? '', /\?page=2$/);
    assert.equal(shown.navigating, undefined);
    assert.equal((await page.textContent('#page'))?.trim(), 'Page two');
  });

  it('a clock that ticks on its own is not reported as the change of a click', async () => {
    const page = await linksPage();
    await clockTicked(page);
    for (let click = 1; click <= 5; click++) {
      const added = await scene.agent.json<Done>('add_one');
      assert.equal(withoutPageMark(added.changes), `Count: ${click}`, JSON.stringify(added));
      assert.equal(added.removed, undefined, JSON.stringify(added));
    }
    assert.equal((await page.textContent('#count'))?.trim(), 'Count: 5');
  });

  it('a click whose page renders a moment later waits for that render, and the clock that ticked meanwhile is not its change', async () => {
    const page = await linksPage();
    await clockTicked(page);
    for (let click = 1; click <= 3; click++) {
      const added = await scene.agent.json<Done>('add_one_later');
      assert.equal(withoutPageMark(added.changes), `Count: ${click}`, JSON.stringify(added));
      assert.equal(added.removed, undefined, JSON.stringify(added));
    }
  });

  it('a caption that ticks on its own (a countdown) sends no tools/list_changed', async () => {
    const page = await linksPage();
    await clockTicked(page);
    const count = scene.agent.listChangedCount();
    // Ten more ticks of the countdown, each a new caption.
    await clockTicked(page, 1);
    assert.equal(scene.agent.listChangedCount(), count);
  });

  it('open_tab of an unreachable address fails with the browser load error', async () => {
    const closedPort = await freePort();
    const result = await scene.agent.call('open_tab', { url: `http://127.0.0.1:${closedPort}/` });
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /net::ERR_CONNECTION_REFUSED/);
  });

  it('open_tab of about:blank and of a data: URL answers once loaded, with no tools to wait for', async () => {
    for (const url of ['about:blank', 'data:text/html,<title>Inline</title><p>Inline page</p>']) {
      const answer = await scene.agent.json<Opened>('open_tab', { url });
      assert.equal(answer.tab.url, url);
      assert.equal(answer.toolCount, 0, JSON.stringify(answer));
    }
  });
});
