import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildGauntlet } from '../examples/gauntlet/build';
import { gauntletAgent } from '../test-support/gauntlet-agent';
import { waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

/**
 * Issue 23, trusted input: real hover, a timed double-click, type-ahead, drag and drop and file
 * upload, on pages built from npm component libraries (SortableJS, Tom Select) and plain markup.
 * Each outcome is read from the page (the library's own state) over CDP, never from the answers.
 */
describe('gauntlet: trusted input (--input auto)', () => {
  let scene: Scene;
  let agent: Agent;
  let files: string;
  let script: ReturnType<typeof gauntletAgent>;
  const call = (name: string, args: Record<string, unknown> = {}) => script.call(name, args);
  const handleOf = (text: string) => script.handleOf(text);
  const why = () => script.why();

  before(async () => {
    await buildGauntlet();
    files = mkdtempSync(join(tmpdir(), 'tabmcp-upload-'));
    scene = await startScene(['--launch']);
    agent = scene.agent;
    script = gauntletAgent(agent);
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(async () => {
    await scene?.close();
    rmSync(files, { recursive: true, force: true });
  });

  const state = <T>(page: string, expression: string) => evaluateIn<T>(scene.agent.stderr, page, expression);
  const open = (page: string) => agent.json('open_tab', { url: `${scene.site.url}/gauntlet/${page}` });

  it('hover: the row really is under the pointer (:hover applies), so its Remove button shows and works', async () => {
    await open('pointer.html');
    await call('act', { handle: await handleOf('Call mom'), action: 'hover' });
    assert.notEqual(
      await state('pointer.html', 'getComputedStyle(document.querySelector("[data-chore=mom] .remove")).display'),
      'none',
      why(),
    );
    await call('act', { handle: await handleOf('Remove'), action: 'click' });
    assert.deepEqual(await state('pointer.html', 'window.chores.removed'), ['mom'], why());
  });

  it('double-click: two presses with real timing, which a timing check accepts', async () => {
    await open('pointer.html');
    await call('act', { handle: await handleOf('Water plants'), action: 'dblclick' });
    assert.equal(await state('pointer.html', 'window.chores.editing'), 'Water plants', why());
  });

  it('upload: "upload report.pdf" puts the local file into the file field', async () => {
    const report = join(files, 'report.pdf');
    writeFileSync(report, '%PDF-1.4 tabmcp gauntlet\n');
    await open('pointer.html');
    await call('act', { handle: await handleOf('Attach a report'), action: 'upload', value: report });
    assert.deepEqual(await state('pointer.html', 'window.chores.attached'), { name: 'report.pdf', size: 25 }, why());
  });

  it('type-ahead (Tom Select): "pick Canada" types key by key, the list filters, the option is picked', async () => {
    await open('country.html');
    // Tom Select keeps the original <select> in the page, hidden for sight but not for reading: the
    // type-ahead box is the combobox named by the label.
    await call('act', { handle: await handleOf('combobox "Country"'), action: 'fill', value: 'Cana' });
    // Tom Select refreshes its list a moment after the last key (refreshThrottle): the agent reads
    // the filtered options, then picks one, as a person does.
    await call('act', { handle: await handleOf('option "Canada"'), action: 'click' });
    assert.equal(await state('country.html', 'window.countryPicked()'), 'CA', why());
    assert.equal(await state('country.html', 'window.countryKeys()'), 'Cana', why());
  });

  it('drag and drop (SortableJS): "move Pay rent to Done"', async () => {
    await open('kanban.html');
    const card = await handleOf('Pay rent');
    await call('act', { handle: card, action: 'drag', value: await handleOf('File taxes') });
    const board = await state<{ todo: string[]; done: string[] }>('kanban.html', 'window.board()');
    assert.ok(board.done.includes('rent') && !board.todo.includes('rent'), `${JSON.stringify(board)}\n${why()}`);
  });
});
