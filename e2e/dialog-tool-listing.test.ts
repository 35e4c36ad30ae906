import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

type DialogAnswer = { dialog?: { id: string; kind: string }; done?: string };

/**
 * Issue 37, decision 353: handle_dialog is listed only while the focused tab has a dialog an
 * answer showed. The answer that shows one comes after the tools/list_changed that lists it, so an
 * agent that re-lists on the notification has the tool when it reads the answer.
 */
describe('handle_dialog listed while a dialog waits (real Chromium, --input auto)', () => {
  let scene: Scene;
  let agent: Agent;
  const listsDialogTool = async () => (await agent.toolNames()).includes('handle_dialog');

  before(async () => {
    scene = await startScene(['--launch']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  it('appears with the answer that shows a confirm, before it; leaves once answered; follows focus', async () => {
    const bills = await agent.json<{ tab: { id: number } }>('open_tab', {
      url: `${scene.site.url}/gauntlet/dialogs.html`,
    });
    assert.equal(await listsDialogTool(), false, 'no dialog yet');

    const heardBefore = agent.listChangedCount();
    const clicked = await agent.call('delete');
    // Counted as the client read the answer: the notification came first on the same stream.
    const heardByAnswer = agent.listChangedCount();
    const shown = JSON.parse(textOf(clicked)) as DialogAnswer;
    assert.equal(shown.dialog?.kind, 'confirm', textOf(clicked));
    assert.ok(heardByAnswer > heardBefore, 'tools/list_changed arrived before the answer');
    assert.equal(await listsDialogTool(), true, 'the re-read list has handle_dialog');

    // Another tab focused: its list follows that tab, which shows no dialog; back, it is listed again.
    await agent.json('open_tab', { url: `${scene.site.url}/gauntlet/city.html` });
    assert.equal(await listsDialogTool(), false, 'a tab switch away hides it');
    await agent.json('focus_tab', { tabId: bills.tab.id });
    assert.equal(await listsDialogTool(), true, 'the dialog still waits in the bills tab');

    const gone = agent.nextListChanged();
    const handled = await agent.json<DialogAnswer>('handle_dialog', { accept: false });
    assert.match(handled.done ?? '', /Dismissed the confirm dialog/);
    await gone;
    assert.equal(await listsDialogTool(), false, 'answered, it leaves the list');

    // Unlisted, it still answers as before: the extension says no dialog is open.
    const unlisted = await agent.call('handle_dialog', { accept: true });
    assert.equal(unlisted.isError, true);
    assert.match(textOf(unlisted), /No dialog is open/);
  });
});
