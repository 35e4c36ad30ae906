import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonOf, textOf, waitFor } from '../test-support/harness';
import { evaluateIn, evaluateInWorker } from '../test-support/page-eval';
import { type Scene, startScene } from '../test-support/server-harness';

/**
 * Chrome's "started debugging this browser" bar comes 100 to 300 ms after a call attaches the debugger (the
 * first call after each 15 s idle spell, in the person's own Chrome too) and takes 56 px off the bottom of the
 * window (background/debugger/debugging-bar.ts). Each test acts on a control whose middle is in that strip, with
 * the bar gone and no session attached, as a person comes back to the tab. The page's handles are read with
 * input mode synthetic (the options page's setting), so that the read attaches nothing and the act is the call
 * that brings the bar.
 */
describe('pointer actions near the window’s bottom edge as the debugging bar comes', () => {
  let scene: Scene;
  let opened = 0;
  /** The window's height without the bar: read before any session ever attached. */
  let fullHeight = 0;
  const setInputMode = (mode: string) =>
    evaluateInWorker(scene.agent.stderr, `chrome.storage.local.set({ inputMode: '${mode}' })`);

  before(async () => {
    scene = await startScene(['--launch']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  /** Opens the board (`mode`: the page's load, see the page), reads it, and waits for the last test's bar to go. */
  const openBoard = async (mode: string) => {
    const marker = `run=${++opened}&`;
    await setInputMode('synthetic');
    await scene.agent.json('open_tab', { url: `${scene.site.url}/widgets/window-edge.html?${marker}${mode}` });
    const state = <T>(expression: string) => evaluateIn<T>(scene.agent.stderr, marker, expression);
    const page = textOf(await scene.agent.call('get_page_content'));
    fullHeight ||= await state<number>('innerHeight');
    // Chrome keeps the bar 5 s after the last session ends (the last test closed its tab).
    await waitFor(async () => (await state<number>('innerHeight')) === fullHeight || undefined, 15_000, 'no bar');
    await setInputMode('auto');
    const handle = (name: string) => {
      const found = new RegExp(`\\[[a-z]+ "${name}" ([a-z]\\d+)\\]`).exec(page)?.[1];
      assert.ok(found, page);
      return found;
    };
    const barCame = () =>
      waitFor(async () => (await state<number>('innerHeight')) < fullHeight || undefined, 10_000, 'the bar');
    return { state, handle, barCame };
  };
  const closeTab = () => scene.agent.call('close_tab', {});

  it('a hover stays over its control once the bar has come', async () => {
    const { state, handle, barCame } = await openBoard('');
    const answer = await scene.agent.call('act', { handle: handle('Help'), action: 'hover' });
    assert.match(textOf(answer), /Drag a card to Done/, 'the tooltip showed');
    await barCame();
    // Measured before the bar, the pointer was left past the window's new edge, and the page heard it leave.
    assert.equal(await state('!document.getElementById("tip").hidden'), true, 'the tooltip still shows');
    await closeTab();
  });

  it('a drag on a page slow to take the press drops on its target', async () => {
    const { state, handle } = await openBoard('heavy');
    const answer = await scene.agent.call('act', {
      handle: handle('Write report'),
      action: 'drag',
      value: handle('Ship release'),
    });
    assert.notEqual(answer.isError, true, textOf(answer));
    // Aimed before the bar, the drag went on in the shorter window and dropped past its edge, answered `done`.
    assert.equal(await state('window.seen.drops'), 1, `dropped once: ${textOf(answer)}`);
    await closeTab();
  });

  it('a wheel turn on a busy page scrolls the region it names', async () => {
    const { state } = await openBoard('busy');
    const result = await scene.agent.call('scroll', { direction: 'down' });
    // Aimed before the bar, the wheel turned past the window's edge and nothing scrolled: answered `done` with the
    // list "at the start" before the wheel's landing was heard, an error since (press-landing.ts).
    assert.notEqual(result.isError, true, textOf(result));
    const answer = jsonOf<{ position?: string }>(result);
    assert.notEqual(answer.position, 'at the start', JSON.stringify(answer));
    assert.ok((await state<number>('document.getElementById("list").scrollTop')) > 0, 'the history list scrolled');
    await closeTab();
  });
});
