import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn, evaluateInWorker } from '../test-support/page-eval';
import { type Scene, startScene } from '../test-support/server-harness';

const RUNS = Number(process.env.BAR_RUNS ?? 1);

describe('pointer actions as the debugging bar shortens the window', () => {
  let scene: Scene;
  let opened = 0;
  let full: number | undefined;
  before(async () => {
    scene = await startScene(['--launch']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  /** Opens the page with the debugger detached and the bar gone; handles read, as a person comes back after 15 s idle. */
  const fresh = async () => {
    const path = `/widgets/window-edge.html?run=${++opened}&${process.env.BAR_BUSY ? '&busy' : ''}`;
    await evaluateInWorker(scene.agent.stderr, `chrome.storage.local.set({ inputMode: 'synthetic' })`);
    await scene.agent.json('open_tab', { url: `${scene.site.url}${path}` });
    const state = <T>(expression: string) => evaluateIn<T>(scene.agent.stderr, `run=${opened}&`, expression);
    const page = textOf(await scene.agent.call('get_page_content'));
    const t0 = Date.now();
    // Read before any session ever attached: the window's height without the bar.
    full ??= await state<number>('innerHeight');
    await waitFor(async () => ((await state<number>('innerHeight')) === full ? true : undefined), 15_000, 'the bar to go');
    console.log('bar gone after', Date.now() - t0);
    await evaluateInWorker(scene.agent.stderr, `chrome.storage.local.set({ inputMode: 'auto' })`);
    return { page, state, height: full };
  };
  const handle = (page: string, token: RegExp) => {
    const found = token.exec(page)?.[1];
    assert.ok(found, page);
    return found;
  };

  const CASE = process.env.BAR_CASE ?? 'drag';
  for (let run = 1; run <= RUNS; run++) {
    it(`hover near the bottom edge (${run})`, { skip: CASE !== 'hover' }, async () => {
      const { page, state } = await fresh();
      const help = handle(page, /\[button "Help" ([a-z]\d+)\]/);
      const answer = await scene.agent.call('act', { handle: help, action: 'hover' });
      console.log('answer', textOf(answer).slice(0, 300));
      await new Promise((r) => setTimeout(r, 800));
      console.log((await state<string[]>('window.seen.log')).join('\n'));
      const shown = await state<boolean>('!document.getElementById("tip").hidden');
      await scene.agent.call('close_tab', {});
      assert.equal(shown, true);
    });
    it(`dblclick near the bottom edge (${run})`, { skip: CASE !== 'dblclick' }, async () => {
      const { page, state } = await fresh();
      const title = handle(page, /\[clickable "Untitled board" ([a-z]\d+)\]/);
      const answer = await scene.agent.call('act', { handle: title, action: 'dblclick' });
      console.log('answer', textOf(answer).slice(0, 300));
      await new Promise((r) => setTimeout(r, 800));
      console.log((await state<string[]>('window.seen.log')).join('\n'));
      const renames = await state<number>('window.seen.renames');
      await scene.agent.call('close_tab', {});
      assert.equal(renames, 1);
    });
    it(`scroll near the bottom edge (${run})`, { skip: CASE !== 'scroll' }, async () => {
      const { page, state } = await fresh();
      void page;
      const answer = await scene.agent.call('scroll', { direction: 'down' });
      console.log('answer', textOf(answer).slice(0, 300));
      await new Promise((r) => setTimeout(r, 800));
      console.log((await state<string[]>('window.seen.log')).join('\n'));
      const top = await state<number>('document.getElementById("list").scrollTop');
      await scene.agent.call('close_tab', {});
      assert.ok(top > 0);
    });
    it(`drag near the bottom edge (${run})`, { skip: CASE !== 'drag' }, async () => {
      const { page, state, height } = await fresh();
      if (run === 1) console.log(page);
      const card = handle(page, /\[[^\]]*"Write report"[^\]]* ([a-z]\d+)\]/);
      const lane = handle(page, /\[[^\]]*"Ship release"[^\]]* ([a-z]\d+)\]/);
      const answer = await scene.agent.call('act', { handle: card, action: 'drag', value: lane });
      const after = await state<number>('innerHeight');
      const drops = await state<number>('window.seen.drops');
      console.log('drag', { height, after, drops, answer: textOf(answer).slice(0, 300) });
      await new Promise((r) => setTimeout(r, 800));
      console.log((await state<string[]>('window.seen.log')).join('\n'));
      await scene.agent.call('close_tab', {});
      assert.equal(drops, 1);
    });
  }
});
