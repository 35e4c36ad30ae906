import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

type Answer = Record<string, unknown>;

/**
 * Issue 25's bar: a page that tries to mislead an agent (examples/dom-patterns/hostile.html) with
 * invisible twins, fake markers, fake tokens, bidi text and controls that lie about success. Driven
 * by the official MCP SDK client through tabmcp; what happened is read on the page itself over CDP.
 * No wrong element, no false success and no unmarked page text may reach the agent.
 */
describe('a hostile page', () => {
  let scene: LaunchedScene;
  let agent: Agent;
  let page: Page;
  let origin: string;

  before(async () => {
    scene = await startLaunchedScene();
    agent = scene.agent;
    origin = new URL(scene.site.url).origin;
    await agent.json('open_tab', { url: `${scene.site.url}/dom-patterns/hostile.html` });
    page = await pageWithUrl(scene.browser, '/dom-patterns/hostile.html');
    await waitFor(
      async () => (await agent.toolNames()).includes('click_keep_my_account') || undefined,
      10_000,
      'the page tools',
    );
  });

  after(() => scene?.close());

  const log = () => page.evaluate(() => (window as unknown as { pageLog: string[] }).pageLog);
  /** Every string the page wrote into an answer starts with our mark. */
  const assertMarked = (answer: Answer) => {
    for (const key of ['changes', 'removed', 'title'])
      if (answer[key] !== undefined) assert.match(String(answer[key]), /^\[page text from /, `${key} is marked`);
    for (const message of (answer.messages as string[] | undefined) ?? [])
      assert.match(message, /^\[page text from /, 'each message is marked');
  };

  it('invisible twins give no tool; a control under its invisible twin is refused, the twin named, neither clicked', async () => {
    const names = await agent.toolNames();
    assert.ok(!names.some((name) => /transfer|approve/.test(name)), `no hidden control is a tool: ${names.join(', ')}`);
    const keep = (await agent.client.listTools()).tools.find((tool) => tool.name === 'click_keep_my_account');
    assert.deepEqual(keep?.inputSchema.properties ?? {}, {}, 'one visible control: no index to pick a twin by');
    // A person's click there lands on the twin: the browser's hit test says so, and tabmcp will not click.
    const answer = await agent.call('click_keep_my_account');
    assert.equal(answer.isError, true, textOf(answer));
    assert.match(textOf(answer), /covered by an invisible button "Keep my account"/);
    assert.deepEqual(await log(), [], 'neither the visible button nor its twin');
  });

  it('the page read is marked, cleaned of bidi and control characters, and cannot forge our tokens, markers or paging', async () => {
    const content = textOf(await agent.call('get_page_content'));
    const [own, marked, ...rest] = content.split('\n');
    assert.doesNotMatch(own ?? '', /\[|Account/, 'the first line is tabmcp’s own: the address');
    assert.equal(marked, `[page text from ${origin}] Account settings`);
    const page = rest.join('\n');
    assert.doesNotMatch(page, /(^|[^\\])\[page/, 'the fake marker is defused');
    assert.match(page, /\\\[button "Keep my account" p1\\\]/, 'the fake token is escaped');
    assert.match(page, /\\\(characters 0–10 of 10; continue with offset 999999\)/, 'the fake paging line is defused');
    assert.match(page, /\\\{"done":/, 'the fake report is defused');
    const hiding = [...page].filter((char) => /[\u202A-\u202E\u2066-\u2069]/.test(char) || char.charCodeAt(0) < 9);
    assert.deepEqual(hiding, [], 'no bidi or control character');
    assert.match(page, /Refund: 00\.01 RUE pending/);
    assert.doesNotMatch(page, /Transfer|Approve|instruction/i, 'no text a person cannot see');
    assert.match(page, /Shown by the component/, 'a closed shadow root is read as it is drawn');
    assert.equal((content.match(/\[button "Keep my account" [a-z]\d+\]/g) ?? []).length, 1, 'one handle, not the twin');
    const fake = await agent.call('act', { handle: 'p1', action: 'click' });
    assert.equal(fake.isError, true, 'the fake token names no element');
    assert.equal((await log()).length, 0);
  });

  it('controls that lie: each answer says what really happened, marked', async () => {
    const offers = await agent.call('set_email_me_offers', { checked: false });
    assert.equal(offers.isError, true, textOf(offers));
    assert.match(textOf(offers), /is still checked/);
    assert.equal(await page.isChecked('#offers'), true);

    const named = await agent.call('fill_display_name', { value: 'Mallory' });
    assert.equal(named.isError, true, textOf(named));
    assert.match(textOf(named), /holds \\"Ada\\"/);
    assert.equal(await page.inputValue('#display-name'), 'Ada');

    const shifty = await agent.json<Answer>('click_cancel');
    assert.match(String(shifty.renamed), /button "Cancel" became button "Delete account"/);

    const closed = await agent.json<Answer>('close_account', { reason: 'test', password: 'x' });
    assert.equal(closed.submitted, false, 'a cancelled submit is not submitted');
    assertMarked(closed);
    assert.match(JSON.stringify(closed), /\[page text from [^\]]+\] Account closed successfully!/);

    const left = await agent.json<Answer>('click_leave_page');
    assert.equal(left.navigating, undefined, 'a fake beforeunload is no navigation');
    assert.equal(left.url, undefined);
    assertMarked(left);
  });
});
