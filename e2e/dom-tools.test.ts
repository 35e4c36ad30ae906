import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { ExampleServer } from '../examples/serve';
import { textOf, waitFor } from './harness';
import { type Agent, type LaunchedScene, pageWithUrl, startLaunchedScene } from './server-harness';

type ListedTool = { name: string; description?: string; inputSchema: Record<string, unknown> };

/** DOM-derived tools (browser-mcp-server.md, "Dynamic Page Tools") on pages that publish none. */
describe('DOM-derived tools in real Chromium', () => {
  let scene: LaunchedScene;
  let site: ExampleServer;
  let agent: Agent;
  let browser: Browser;

  before(async () => {
    scene = await startLaunchedScene();
    ({ site, agent, browser } = scene);
  });

  after(() => scene?.close());

  const tools = async () => (await agent.client.listTools()).tools as ListedTool[];

  it('a plain HTML form becomes one typed tool; filling and submitting it really submits', async () => {
    const opened = await agent.json<{ toolsAvailable: string[] }>('open_tab', { url: `${site.url}/plain/` });
    assert.deepEqual(opened.toolsAvailable, ['send_message', 'get_page_content', 'open_link']);
    const form = (await tools()).find((tool) => tool.name === 'send_message');
    assert.ok(form);
    assert.match(
      form.description ?? '',
      /^\[page tool from http:\/\/127\.0\.0\.1:\d+\] Fill in and submit the form "Write to us"/,
    );
    assert.deepEqual(form.inputSchema.required, ['name', 'email']);
    const properties = form.inputSchema.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(properties.topic?.enum, ['general', 'membership', 'events']);
    assert.deepEqual(properties.reply?.enum, ['email', 'phone']);
    assert.equal(properties.newsletter?.type, 'boolean');
    assert.equal(properties.email?.format, 'email');
    assert.equal(properties.name?.description, 'Your name');

    const missing = await agent.call('send_message', { email: 'ada@example.com' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /name: required/);

    const changed = agent.nextListChanged();
    const sent = await agent.json<{ submitted: boolean; navigating: boolean }>('send_message', {
      name: 'Ada',
      email: 'ada@example.com',
      topic: 'events',
      reply: 'phone',
      newsletter: true,
      message: 'Tea at four?',
    });
    assert.deepEqual([sent.submitted, sent.navigating], [true, true]);
    const page = await pageWithUrl(browser, '/plain/thanks.html');
    await waitFor(async () => /Ada/.test((await page.textContent('#received')) ?? ''), 10_000, 'the thanks page');
    assert.equal(
      await page.textContent('#received'),
      'Message received from Ada <ada@example.com> about events, reply by phone, newsletter yes: Tea at four?',
    );
    // The new page's tools replace the form's.
    await changed;
    await waitFor(async () => !(await agent.toolNames()).includes('send_message'), 10_000, 'the form tool to go');
    const content = await agent.json<{ content: string; title: string }>('get_page_content');
    assert.equal(content.title, 'Thank you (tabmcp demo)');
    assert.match(content.content, /# Thank you/);
    // Links on the same origin are written as paths, as the page itself writes them.
    assert.match(content.content, /\[Back to the form\]\(\/plain\/\)/);
  });

  it('open_link follows a link by its text; a button becomes a click tool', async () => {
    await agent.json('open_link', { text: 'back to the form' });
    await waitFor(async () => (await agent.toolNames()).includes('send_message'), 10_000, 'the form page again');
    await agent.json('open_link', { text: 'About us' });
    await waitFor(async () => (await agent.toolNames()).includes('show_history'), 10_000, 'the about page');
    const clicked = await agent.json<{ clicked: string; changes?: string }>('show_history');
    assert.equal(clicked.clicked, 'Show history');
    const page = await pageWithUrl(browser, '/plain/about.html');
    assert.equal(await page.isVisible('#more'), true);

    // A reload derives the same tools again: read anew, but nothing to announce.
    const count = agent.listChangedCount();
    await page.reload();
    assert.equal(await page.isVisible('#more'), false);
    await waitFor(
      async () => (await agent.call('show_history')).isError !== true && (await page.isVisible('#more')),
      10_000,
      'the reloaded page to answer show_history',
    );
    assert.equal(agent.listChangedCount(), count);
  });

  it('a page with a JavaScript form: results come back with the call; same-captioned buttons take an index', async () => {
    await agent.json('open_tab', { url: `${site.url}/farefinder/` });
    const searched = await agent.json<{ submitted: boolean; changes: string }>('search_flights', {
      from: 'SFO',
      to: 'NYC',
      departDate: '2024-01-19',
      passengers: 2,
      cabin: 'business',
    });
    assert.match(searched.changes, /TM 101 SFO → NYC 2024-01-19 07:10 \$520/);
    // The results added three "Select flight" buttons: the list is derived again (debounced).
    const select = await waitFor(
      async () => (await tools()).find((tool) => tool.name === 'select_flight'),
      10_000,
      'the select_flight tool',
    );
    assert.match(select.description ?? '', /Click one of the 3 "Select flight" buttons.*1: TM 207/);
    const picked = await agent.json<{ changes: string }>('select_flight', { index: 1 });
    assert.match(picked.changes, /Selected TM 207 for 2 passenger\(s\): \$1110/);
    const bad = await agent.call('select_flight', { index: 7 });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /index/);
  });

  it('get_page_content is bounded and pages with offset', async () => {
    await agent.json('open_tab', { url: `${site.url}/real-world/underscore.html` });
    const first = await agent.json<{ content: string; totalChars: number; nextOffset: number }>('get_page_content', {
      maxChars: 1000,
    });
    assert.equal(first.content.length, 1000);
    assert.ok(first.totalChars > 20_000, `${first.totalChars}`);
    const next = await agent.json<{ content: string }>('get_page_content', {
      maxChars: 1000,
      offset: first.nextOffset,
    });
    assert.notEqual(next.content, first.content);
    const names = await agent.toolNames();
    assert.ok(names.length < 40, `a bounded tool list on a large page: ${names.length}`);
  });

  it("a page's own tools take precedence over DOM-derived ones", async () => {
    const opened = await agent.json<{ toolsAvailable: string[] }>('open_tab', { url: `${site.url}/shop/` });
    await waitFor(async () => (await agent.toolNames()).includes('get_cart'), 10_000, 'the shop tools');
    const names = await agent.toolNames();
    assert.ok(!names.includes('get_page_content'), `${names} (${opened.toolsAvailable})`);
  });
});
