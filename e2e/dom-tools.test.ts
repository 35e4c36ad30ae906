import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { launchedSceneForTests, pageWithUrl } from '../test-support/server-harness';

type ListedTool = { name: string; description?: string; inputSchema: Record<string, unknown> };

/** DOM-derived tools (docs/requirements.md, "Dynamic Page Tools") on pages that publish none. */
describe('DOM-derived tools in real Chromium', () => {
  const scene = launchedSceneForTests();

  const tools = async () => (await scene.agent.client.listTools()).tools as ListedTool[];

  it('a plain HTML form becomes one typed tool; filling and submitting it really submits', async () => {
    const opened = await scene.agent.json<{ toolCount: number }>('open_tab', {
      url: `${scene.site.url}/plain/`,
    });
    assert.equal(opened.toolCount, 5, 'the list_changed brings the names');
    const listed = await tools();
    assert.deepEqual(
      listed.slice(-5).map((tool) => tool.name),
      ['send_message', 'get_page_content', 'open_link', 'act', 'scroll'],
    );
    // tabmcp's own page tools hold no page text, so no page mark (decision 338); the derived form's does.
    const act = listed.find((tool) => tool.name === 'act');
    assert.match(act?.description ?? '', /^Act on a handle from get_page_content/);
    const form = listed.find((tool) => tool.name === 'send_message');
    assert.ok(form);
    assert.match(
      form.description ?? '',
      /^\[page http:\/\/127\.0\.0\.1:\d+\] Fill in and submit the form "Write to us"/,
    );
    assert.deepEqual(form.inputSchema.required, ['name', 'email']);
    const properties = form.inputSchema.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(properties.topic?.enum, ['general', 'membership', 'events']);
    assert.deepEqual(properties.reply?.enum, ['email', 'phone']);
    assert.equal(properties.newsletter?.type, 'boolean');
    assert.equal(properties.email?.format, 'email');
    assert.equal(properties.name?.description, 'Your name');

    const missing = await scene.agent.call('send_message', { email: 'ada@example.com' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /name: required/);

    const changed = scene.agent.nextListChanged();
    const sent = await scene.agent.json<{ submitted: boolean; url: string; title: string; tools: string[] }>(
      'send_message',
      {
        name: 'Ada',
        email: 'ada@example.com',
        topic: 'events',
        reply: 'phone',
        newsletter: true,
        message: 'Tea at four?',
      },
    );
    // The answer says where the tab went once the new page loaded.
    assert.equal(sent.submitted, true);
    assert.match(sent.url, /\/plain\/thanks\.html\?name=Ada&/);
    assert.equal(sent.title, 'Thank you (tabmcp demo)');
    assert.deepEqual(sent.tools, ['get_page_content', 'open_link', 'act', 'scroll']);
    const page = await pageWithUrl(scene.browser, '/plain/thanks.html');
    await waitFor(async () => /Ada/.test((await page.textContent('#received')) ?? ''), 10_000, 'the thanks page');
    assert.equal(
      await page.textContent('#received'),
      'Message received from Ada <ada@example.com> about events, reply by phone, newsletter yes: Tea at four?',
    );
    // The new page's tools replace the form's.
    await changed;
    await waitFor(async () => !(await scene.agent.toolNames()).includes('send_message'), 10_000, 'the form tool to go');
    const content = textOf(await scene.agent.call('get_page_content'));
    assert.match(
      content,
      /^http:\/\/127\.0\.0\.1:\d+\/plain\/thanks\.html\?\S*\n\[page text from http:\/\/127\.0\.0\.1:\d+\] Thank you \(tabmcp demo\)\n/,
    );
    assert.match(content, /# Thank you/);
    // Links on the same origin are written as paths, as the page itself writes them.
    assert.match(content, /\[link "Back to the form" [a-z]\d+\]\(\/plain\/\)/);
  });

  it('open_link follows a link by its text; a button becomes a click tool', async () => {
    // Its own tab, on the page the form leads to.
    await scene.open('/plain/thanks.html?name=Ada');
    await scene.agent.json('open_link', { text: 'back to the form' });
    await waitFor(async () => (await scene.agent.toolNames()).includes('send_message'), 10_000, 'the form page again');
    const about = await scene.agent.json<{ done: string; url: string; title: string }>('open_link', {
      text: 'About us',
    });
    assert.match(about.url, /\/plain\/about\.html$/);
    assert.equal(about.title, await pageWithUrl(scene.browser, '/plain/about.html').then((page) => page.title()));
    await waitFor(async () => (await scene.agent.toolNames()).includes('show_history'), 10_000, 'the about page');
    const clicked = await scene.agent.json<{ done: string; changes?: string }>('show_history');
    assert.equal(clicked.done, 'clicked button "Show history"');
    const page = await pageWithUrl(scene.browser, '/plain/about.html');
    assert.equal(await page.isVisible('#more'), true);

    // A reload derives the same tools again: read anew, but nothing to announce.
    const count = scene.agent.listChangedCount();
    await page.reload();
    assert.equal(await page.isVisible('#more'), false);
    await waitFor(
      async () => (await scene.agent.call('show_history')).isError !== true && (await page.isVisible('#more')),
      10_000,
      'the reloaded page to answer show_history',
    );
    assert.equal(scene.agent.listChangedCount(), count);
  });

  it('a page with a JavaScript form: results come back with the call; the results become a collection', async () => {
    await scene.agent.json('open_tab', { url: `${scene.site.url}/farefinder/` });
    const searched = await scene.agent.json<{ submitted: boolean; changes: string }>('search_flights', {
      from: 'SFO',
      to: 'NYC',
      departDate: '2024-01-19',
      passengers: 2,
      cabin: 'business',
    });
    assert.match(searched.changes, /TM 101 SFO → NYC 2024-01-19 07:10 \$520/);
    // The three results, each with a "Select flight" button, are one collection tool, listed
    // before the search's answer reached the scene.agent.
    const results = (await tools()).find((tool) => tool.name === 'results_item');
    assert.ok(results, 'results_item');
    const actions = (results.inputSchema.properties as Record<string, { enum?: string[] }>).action?.enum;
    assert.deepEqual(actions, ['read', 'click "Select flight"']);
    const picked = await scene.agent.json<{ changes: string }>('results_item', {
      item: 'TM 207',
      action: 'click "Select flight"',
    });
    assert.match(picked.changes, /Selected TM 207 for 2 passenger\(s\): \$1110/);
    const bad = await scene.agent.call('results_item', { item: 7, action: 'click "Select flight"' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /Item 7 is out of range: results has 3 items \(0–2\)/);
  });

  it('get_page_content is bounded and pages with offset', async () => {
    await scene.agent.json('open_tab', { url: `${scene.site.url}/real-world/underscore.html` });
    const first = textOf(await scene.agent.call('get_page_content', { maxChars: 1000 }));
    // The first read walks only what it shows: the page's length is "more than" what was walked.
    const paging = /\(characters 0–1000 of more than (\d+); continue with offset 1000\)/.exec(first);
    assert.ok(paging && Number(paging[1]) >= 1_000, first.slice(0, 300));
    assert.ok(first.length < 1_300, `${first.length}`);
    const next = textOf(await scene.agent.call('get_page_content', { maxChars: 1000, offset: 1000 }));
    assert.match(next, /\(characters 1000–2000 of more than \d+; continue with offset 2000\)/);
    assert.notEqual(next.split('\n').slice(2).join('\n'), first.split('\n').slice(2).join('\n'));
    const names = await scene.agent.toolNames();
    assert.ok(names.length < 40, `a bounded tool list on a large page: ${names.length}`);
  });

  it("a page's own tools replace the derived ones, with the two reading tools beside them", async () => {
    await scene.agent.json('open_tab', { url: `${scene.site.url}/shop/` });
    await waitFor(async () => (await scene.agent.toolNames()).includes('get_cart'), 10_000, 'the shop tools');
    const names = await scene.agent.toolNames();
    assert.deepEqual(
      names.filter(
        (name) =>
          !['connect_browser', 'list_tabs', 'open_tab', 'focus_tab', 'close_tab', 'handle_dialog'].includes(name),
      ),
      ['search_products', 'add_to_cart', 'get_cart', 'get_page_content', 'open_link'],
    );
    assert.match(textOf(await scene.agent.call('get_page_content')), /# Tiny Shop/);
  });
});
