import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gauntletAgent } from '../test-support/gauntlet-agent';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

type DialogAnswer = { dialog?: { kind: string; text: string; defaultText?: string }; note?: string };

/**
 * Issue 23, native dialogs: the call that opens one answers with its kind and its (marked) text,
 * every later call to the tab answers at once that it is open, and handle_dialog answers it. The
 * outcome is read from the page over CDP, never from the tools' answers.
 */
describe('gauntlet: native dialogs (--input auto)', () => {
  let scene: Scene;
  let agent: Agent;
  const state = <T>(expression: string) => evaluateIn<T>(scene.agent.stderr, '/gauntlet/', expression);

  before(async () => {
    scene = await startScene(['--launch']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  const openBills = () => agent.json('open_tab', { url: `${scene.site.url}/gauntlet/dialogs.html` });
  const dialogOf = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await agent.call(tool, args);
    return { result, answer: JSON.parse(textOf(result)) as DialogAnswer };
  };

  it('confirm, accepted: the click says a confirm is open; the tab answers at once; OK deletes the bill', async () => {
    await openBills();
    const { answer } = await dialogOf('delete');
    assert.equal(answer.dialog?.kind, 'confirm');
    assert.match(answer.dialog?.text ?? '', /^\[page dialog text from http:\/\/127\.0\.0\.1:\d+\] Delete "Pay rent"\?/);
    assert.match(answer.note ?? '', /handle_dialog/);
    // Any call to the tab meanwhile answers at once that the dialog is open.
    const blocked = await agent.call('get_page_content');
    assert.equal(blocked.isError, true);
    assert.equal((JSON.parse(textOf(blocked)) as DialogAnswer).dialog?.kind, 'confirm');
    const handled = await agent.json<{ done: string }>('handle_dialog', { accept: true });
    assert.match(handled.done, /Accepted the confirm dialog/);
    assert.deepEqual(await state('[window.billState.deleted, document.getElementById("log").textContent]'), [
      true,
      'Deleted',
    ]);
    assert.match(textOf(await agent.call('get_page_content')), /Deleted/);
  });

  it('confirm, dismissed: Cancel keeps the bill', async () => {
    await openBills();
    assert.equal((await dialogOf('delete')).answer.dialog?.kind, 'confirm');
    await agent.json('handle_dialog', { accept: false });
    assert.deepEqual(await state('[window.billState.deleted, !!document.querySelector("[data-bill=rent]")]'), [
      false,
      true,
    ]);
  });

  it('alert: reported with its text and accepted', async () => {
    await openBills();
    const { answer } = await dialogOf('click_say_hello');
    assert.equal(answer.dialog?.kind, 'alert');
    assert.match(answer.dialog?.text ?? '', /Hello from the bills page$/);
    await agent.json('handle_dialog', { accept: true });
    assert.equal(await state('window.billState.greeted'), true);
  });

  it('prompt: its default text is shown, and the answer given reaches the page', async () => {
    await openBills();
    const { answer } = await dialogOf('click_rename_the_phone_bill');
    assert.equal(answer.dialog?.kind, 'prompt');
    assert.match(answer.dialog?.defaultText ?? '', /Phone bill$/);
    await agent.json('handle_dialog', { accept: true, text: 'Mobile phone' });
    assert.equal(await state('window.billState.renamed'), 'Mobile phone');
  });

  it('a dialog the page opens by itself is reported by the next call', async () => {
    await openBills();
    await agent.call('click_remind_me_in_a_moment');
    const reported = await waitFor(
      async () => {
        const result = await agent.call('get_page_content');
        return result.isError ? (JSON.parse(textOf(result)) as DialogAnswer) : undefined;
      },
      10_000,
      'the reminder alert to be reported',
    );
    assert.equal(reported.dialog?.kind, 'alert');
    assert.match(reported.dialog?.text ?? '', /Reminder: the phone bill is due$/);
    await agent.json('handle_dialog', { accept: true });
    assert.equal(await state('window.billState.reminded'), true);
  });

  it('a dialog nobody announced (from a frame) is found by attaching the debugger, and answered', async () => {
    await openBills();
    const { answer } = await dialogOf('click_check_the_frame');
    assert.equal(answer.dialog?.kind, 'alert');
    assert.match(answer.dialog?.text ?? '', /Alert from inside a frame$/);
    await agent.json('handle_dialog', { accept: true });
    assert.equal(await state('window.billState.framed'), true);
  });

  it('a four-step wizard that ends in alert(): the last click reports it, and it is accepted', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/gauntlet/wizard.html` });
    const script = gauntletAgent(agent);
    await script.call('act', {
      handle: await script.handleOf('Your name'),
      action: 'fill',
      value: 'Ada',
      submit: true,
    });
    await script.call('act', { handle: await script.handleOf('Speed'), action: 'select', value: 'express' });
    await script.call('act', { handle: await script.handleOf('Next'), action: 'click' });
    const placed = await script.json<DialogAnswer>('act', {
      handle: await script.handleOf('Place order'),
      action: 'click',
    });
    assert.equal(placed.dialog?.kind, 'alert', script.why());
    assert.match(placed.dialog?.text ?? '', /Thank you, Ada! Your order is placed\.$/);
    await agent.json('handle_dialog', { accept: true });
    assert.deepEqual(await state('JSON.stringify(window.wizard)'), '{"name":"Ada","speed":"express","placed":true}');
  });

  it('a dialog announced before the browser shows it is answered once the browser does (decision 257)', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/gauntlet/late-dialog.html` });
    const { answer } = await dialogOf('click_archive_everything');
    assert.equal(answer.dialog?.kind, 'confirm');
    // At once, as an agent would: the browser has not shown the dialog yet.
    const handled = await agent.json<{ done: string }>('handle_dialog', { accept: true });
    assert.match(handled.done, /Accepted the confirm dialog/);
    assert.equal(await evaluateIn(scene.agent.stderr, 'late-dialog.html', 'window.archiveState.archived'), true);
  });

  it('handle_dialog with no dialog open says so', async () => {
    await openBills();
    const result = await agent.call('handle_dialog', { accept: true });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /No dialog is open/);
  });
});

describe('gauntlet: "Leave site?" (beforeunload) with --input trusted', () => {
  let scene: Scene;
  let agent: Agent;

  before(async () => {
    scene = await startScene(['--launch', '--input', 'trusted']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  // Chrome asks before leaving only a page the user interacted with: typed keys are such input.
  const typeDraft = async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/gauntlet/leave.html` });
    const script = gauntletAgent(agent);
    await script.call('act', { handle: await script.handleOf('Note'), action: 'fill', value: 'half a thought' });
    const leaving = await script.json<DialogAnswer>('open_link', { text: 'Go to the bills' });
    assert.equal(leaving.dialog?.kind, 'beforeunload', script.why());
  };

  it('stay: the draft is kept', async () => {
    await typeDraft();
    await agent.json('handle_dialog', { accept: false });
    assert.equal(
      await evaluateIn(scene.agent.stderr, 'leave.html', 'document.getElementById("note").value'),
      'half a thought',
    );
  });

  it('leave: the link is followed', async () => {
    await typeDraft();
    await agent.json('handle_dialog', { accept: true });
    // The bills page loads once the dialog let the tab go.
    await waitFor(
      async () => (await evaluateIn(scene.agent.stderr, 'dialogs.html', 'typeof window.billState')) === 'object',
      10_000,
      'the bills page',
    );
  });
});

describe('gauntlet: native dialogs (--input synthetic, no debugger)', () => {
  let scene: Scene;
  let agent: Agent;

  before(async () => {
    scene = await startScene(['--launch', '--input', 'synthetic']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  it('an announced dialog is still reported, and the answer says who can close it', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/gauntlet/dialogs.html` });
    const answer = JSON.parse(textOf(await agent.call('click_say_hello'))) as DialogAnswer;
    assert.equal(answer.dialog?.kind, 'alert');
    const refused = await agent.call('handle_dialog', { accept: true });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /--input synthetic.*ask the user to answer it in the browser.*--input auto/);
  });

  it('a dialog nobody announced: the call says the page stopped answering, that it may still run, and what to do', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/gauntlet/dialogs.html` });
    const result = await agent.call('click_check_the_frame');
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /stopped answering while "click_check_the_frame" ran, perhaps because it shows a dialog.*may still be running.*ask the user.*--input auto/,
    );
    // The call reached the page (issue 38): never advice to call it again.
    assert.doesNotMatch(textOf(result), /call again/);
  });
});
