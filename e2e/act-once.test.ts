import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { type Scene, startScene } from '../test-support/server-harness';

/**
 * Issues 37 and 38: an action is the browser's own input by default (`--input auto`), aimed by the
 * browser's hit test before it is sent, and sent once. Outcomes are read from the pages over CDP.
 */
describe('act once, as a person does', () => {
  let scene: Scene;
  const state = <T>(page: string, expression: string) => evaluateIn<T>(scene.agent.stderr, page, expression);
  const read = async () => textOf(await scene.agent.call('get_page_content'));
  const handleOf = async (token: RegExp) => {
    const page = await read();
    const handle = token.exec(page)?.[1];
    assert.ok(handle, page);
    return handle;
  };
  const open = async (path: string) =>
    (await scene.agent.json<{ tab: { id: number } }>('open_tab', { url: `${scene.site.url}${path}` })).tab.id;
  let ordersTab = 0;

  before(async () => {
    scene = await startScene(['--launch']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  it('a click far down a page reports what it changed, not the top of the page its scroll moved away', async () => {
    await open('/widgets/below-the-fold.html');
    const handle = await handleOf(/\[button "Is parking free on holidays\?" \(collapsed\) ([a-z]\d+)\]/);
    const answer = await scene.agent.json<{ changes?: string }>('act', { handle, action: 'click' });
    assert.match(answer.changes ?? '', /Only on the holidays the calendar lists/);
    assert.doesNotMatch(answer.changes ?? '', /Parking questions|drivers ask/, 'the top of the page did not change');
    await scene.agent.call('close_tab', {});
  });

  it('a row is clicked on its own text, not on the editable cell at its centre', async () => {
    await open('/widgets/row-select.html');
    const handle = await handleOf(/\[row ([a-z]\d+)\]/);
    const answer = await scene.agent.call('act', { handle, action: 'click' });
    assert.notEqual(answer.isError, true, textOf(answer));
    assert.deepEqual(await state('/widgets/row-select', 'window.seen'), { selected: true, edited: false });
    await scene.agent.call('close_tab', {});
  });

  it('a control that acts only on trusted events is clicked once, for real', async () => {
    await open('/widgets/trusted-only.html');
    const handle = await handleOf(/\[clickable "Star this repository" ([a-z]\d+)\]/);
    const answer = await scene.agent.json<{ done?: string; changes?: string }>('act', { handle, action: 'click' });
    assert.match(answer.changes ?? '', /Starred/);
    assert.equal(await state('/widgets/trusted-only', 'window.trusted.starred'), true);
  });

  it('a click whose confirmation comes late is made once: one order, never two', async () => {
    ordersTab = await open('/widgets/act-once.html');
    const handle = await handleOf(/\[button "Place order" ([a-z]\d+)\]/);
    const answer = await scene.agent.call('act', { handle, action: 'click' });
    assert.notEqual(answer.isError, true, textOf(answer));
    await waitFor(
      async () =>
        (await state<string>('/widgets/act-once', "document.getElementById('status').textContent")) || undefined,
      10_000,
      'the late confirmation',
    );
    assert.equal(await state('/widgets/act-once', 'window.seen.orders'), 1);
  });

  it('a click opens a popup, with the user activation a person’s click carries', async () => {
    const handle = await handleOf(/\[button "Open help" ([a-z]\d+)\]/);
    const answer = await scene.agent.json<{ openedTabs?: Array<{ id: number; url: string }> }>('act', {
      handle,
      action: 'click',
    });
    assert.deepEqual(await state('/widgets/act-once', 'window.seen.popups'), ['opened'], 'one click, not blocked');
    const popup = answer.openedTabs?.[0];
    assert.match(popup?.url ?? '', /#help$/, `the answer names the popup: ${JSON.stringify(answer)}`);
    const focused = await scene.agent.call('focus_tab', { tabId: popup?.id });
    assert.notEqual(focused.isError, true, textOf(focused));
    await scene.agent.json('focus_tab', { tabId: ordersTab });
  });

  it('a control under a modal is refused, the cover named, and nothing is clicked', async () => {
    const handle = await handleOf(/\[button "Show details" ([a-z]\d+)\]/);
    await state('/widgets/act-once', 'window.openModal()');
    const answer = await scene.agent.call('act', { handle, action: 'click' });
    assert.equal(answer.isError, true, textOf(answer));
    assert.match(textOf(answer), /covered by/);
    assert.deepEqual(await state('/widgets/act-once', '[window.seen.details, window.seen.modalClicks]'), [0, 0]);
    await state('/widgets/act-once', "document.getElementById('modal').classList.remove('open')");
  });

  it('a checkbox faded out over the circle its label draws is read and checked (the stock TodoMVC style)', async () => {
    const page = await read();
    const handle = /\[checkbox "?[^\]]*?([a-z]\d+)\]/.exec(page)?.[1];
    assert.ok(handle, `the faded checkbox is in the page read:\n${page}`);
    await scene.agent.json('act', { handle, action: 'check' });
    assert.equal(await state('/widgets/act-once', "document.getElementById('milk').checked"), true);
  });

  it('an add box that clears itself on Enter answers done, and the row is added once', async () => {
    const handle = await handleOf(/\[textbox "What needs to be done\?"[^\]]* ([a-z]\d+)\]/);
    const answer = await scene.agent.json<{ done?: string; failed?: string; changes?: string }>('act', {
      handle,
      action: 'fill',
      value: 'Walk the dog',
      submit: true,
    });
    assert.equal(answer.failed, undefined, JSON.stringify(answer));
    assert.match(answer.done ?? '', /filled/);
    assert.deepEqual(await state('/widgets/act-once', 'window.seen.todos'), ['Walk the dog']);
  });

  it('a virtualized list is scrolled, as a person scrolls it, until the row asked for is rendered', async () => {
    await open('/widgets/virtual-list.html');
    let seen = '';
    for (let turn = 0; turn < 10 && !/Call contact 40\\?"/.test(seen); turn++) {
      const answer = await scene.agent.json<{ changes?: string; position?: string }>('scroll', {});
      seen = answer.changes ?? '';
    }
    const handle = /\[button \\?"Call contact 40\\?" ([a-z]\d+)\]/.exec(seen)?.[1];
    assert.ok(handle, `row 40 came into view:\n${seen}`);
    await scene.agent.json('act', { handle, action: 'click' });
    assert.deepEqual(await state('/widgets/virtual-list', 'window.picked'), [40]);
  });

  it('a box a person scrolls has a handle; End pressed in it answers with the rows where its scroll stopped', async () => {
    await open('/widgets/virtual-list.html');
    // The list's box has no role and no tabindex: the browser's layout alone says it scrolls.
    const handle = await handleOf(/\[scrollable ([a-z]\d+)\]/);
    // Clicked into, as a person does before a key: the key then scrolls the box under that click.
    await scene.agent.json('act', { handle, action: 'click' });
    const answer = await scene.agent.json<{ changes?: string }>('act', { handle, action: 'press', key: 'End' });
    // The smooth scroll End starts shows its first scroll event frames after the key: waited for, it
    // ends at the last row, not at the first rows the answer would show if it left at once.
    assert.match(answer.changes ?? '', /Call contact 10000/, JSON.stringify(answer));
    assert.deepEqual(await state('/widgets/virtual-list', 'window.picked'), [], 'the click pressed no row');
  });
});
