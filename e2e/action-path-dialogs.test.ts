import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn, pageHasDebugger } from '../test-support/page-eval';
import { type Agent, type Scene, startScene } from '../test-support/server-harness';

type DialogAnswer = {
  dialog?: { id: string; kind: string; text: string };
  note?: string;
  refused?: string;
  done?: string;
};

/** What pages told the test over HTTP (navigator.sendBeacon), which they can do right before a dialog blocks them. */
interface Beacons {
  url: string;
  heard: string[];
  close(): Promise<void>;
}

async function startBeacons(): Promise<Beacons> {
  const heard: string[] = [];
  const server: Server = createServer((request, response) => {
    heard.push(new URL(request.url ?? '/', 'http://x').search.slice(1));
    response.writeHead(204).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/beacon`,
    heard,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Issue 38, dialogs: a page cannot make tabmcp tell an agent to repeat a call that may have run,
 * swap the dialog the agent answers, reach a dialog of a site the user has not allowed, or hold the
 * debugger with a dialog it only announced. Each attack runs on examples/attacks/dialogs.html through
 * the official MCP SDK client and tabmcp with the built extension; the page's state is read over a
 * bare CDP connection (never Playwright, which would answer the dialogs itself).
 */
describe('dialog attacks (--input auto)', () => {
  let scene: Scene;
  let agent: Agent;
  let beacons: Beacons;
  let opened = 0;
  const state = <T>(tab: string, expression: string) => evaluateIn<T>(scene.agent.stderr, tab, expression);

  before(async () => {
    beacons = await startBeacons();
    scene = await startScene(['--launch']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(async () => {
    await scene?.close();
    await beacons?.close();
  });

  /** A fresh tab of the attack page, its query unique in this file; resolves to that query's mark. */
  const openAttacks = async (site = scene.site.url, extra = '') => {
    const tab = `tab=${++opened}`;
    await agent.json('open_tab', {
      url: `${site}/attacks/dialogs.html?${tab}&beacon=${encodeURIComponent(beacons.url)}${extra}`,
      focus: true,
    });
    return tab;
  };

  it('a page busy for 5 s is not "probably a dialog": the call is answered with its own result, once', async () => {
    const tab = await openAttacks();
    const result = await agent.call('click_run_the_report');
    assert.notEqual(result.isError, true, textOf(result));
    assert.doesNotMatch(textOf(result), /call again|stopped answering/);
    assert.match(String((JSON.parse(textOf(result)) as DialogAnswer).done), /clicked button "Run the report"/);
    assert.equal(await state(tab, 'window.attack.runs'), 1);
  });

  it('an announced alert swapped for a real confirm: the agent is shown the confirm, and a wrong id is refused', async () => {
    const tab = await openAttacks();
    const result = await agent.call('click_pay_the_invoice');
    const shown = JSON.parse(textOf(result)) as DialogAnswer;
    assert.equal(shown.dialog?.kind, 'confirm', `the browser's dialog, not the page's claim: ${textOf(result)}`);
    assert.match(shown.dialog?.text ?? '', /Send 500 EUR to Mallory\?$/);
    // An answer for another dialog (an id from no answer about this one) is refused, showing the real one.
    const wrong = await agent.call('handle_dialog', { accept: true, dialog: 'd00000000' });
    assert.equal(wrong.isError, true, textOf(wrong));
    const refusal = JSON.parse(textOf(wrong)) as DialogAnswer;
    assert.match(refusal.refused ?? '', /^Nothing was answered: dialog "d00000000" is not open/);
    assert.equal(refusal.dialog?.kind, 'confirm');
    assert.equal(refusal.dialog?.id, shown.dialog?.id);
    const dismissed = await agent.json<DialogAnswer>('handle_dialog', { accept: false, dialog: shown.dialog?.id });
    assert.match(dismissed.done ?? '', /Dismissed the confirm dialog/);
    assert.equal(await state(tab, 'window.attack.transfers'), 0);
  });

  it('a dialog no answer showed the agent is not answered blind: the refusal shows it, and its id answers it', async () => {
    const tab = await openAttacks();
    await agent.json('click_remind_me');
    await waitFor(() => beacons.heard.includes('opening=remind'), 10_000, 'the page to open its confirm');
    const blind = await agent.call('handle_dialog', { accept: true });
    assert.equal(blind.isError, true, textOf(blind));
    const refusal = JSON.parse(textOf(blind)) as DialogAnswer;
    assert.match(refusal.refused ?? '', /^Nothing was answered: no answer has shown you this dialog yet/);
    assert.equal(refusal.dialog?.kind, 'confirm');
    assert.match(refusal.dialog?.text ?? '', /Delete the draft\?$/);
    assert.ok(!beacons.heard.includes('answered=true'), 'the confirm was not accepted');
    const accepted = await agent.json<DialogAnswer>('handle_dialog', { accept: true, dialog: refusal.dialog?.id });
    assert.match(accepted.done ?? '', /Accepted the confirm dialog/);
    assert.equal(await state(tab, 'window.attack.deleted'), true);
  });

  it('an alert announced after the last call holds nothing: the debugger detaches when idle, and later calls run', async () => {
    const tab = await openAttacks();
    await agent.json('click_arm_the_banner');
    // The call ran attached (so its dialogs could be answered): the measure below sees the extension's session.
    assert.equal(await pageHasDebugger(scene.agent.stderr, tab), true, 'attached for the call');
    await waitFor(async () => (await state(tab, 'window.attack.announced')) === true, 10_000, 'the fake alert');
    // Idle 15 s after the last call: nothing holds the session for a dialog the browser never showed.
    await waitFor(async () => !(await pageHasDebugger(scene.agent.stderr, tab)), 40_000, 'the debugger to detach');
    const content = await agent.call('get_page_content');
    assert.notEqual(content.isError, true, textOf(content));
    assert.doesNotMatch(textOf(content), /"dialog"/);
  });

  describe('on a site the user has not allowed', () => {
    let other: ExampleServer;
    before(async () => {
      // 127.0.0.2 is loopback but not on the default allowlist (127.0.0.1, localhost, [::1]).
      other = await startExampleServer(0, '127.0.0.2');
    });
    after(() => other?.close());

    it('handle_dialog is refused: no dialog there is answered or read', async () => {
      await openAttacks(other.url, '&transfer');
      // Before its confirm opens (a first handle_dialog used to attach the debugger, so CDP heard it)...
      const early = await agent.call('handle_dialog', { accept: true });
      assert.equal(early.isError, true, textOf(early));
      assert.match(textOf(early), /127\.0\.0\.2 is not allowed yet: the user must allow it in the tabmcp popup/);
      await waitFor(() => beacons.heard.includes('opening=transfer'), 10_000, 'the page to open its confirm');
      // ...and while it is open.
      const refused = await agent.call('handle_dialog', { accept: true });
      assert.equal(refused.isError, true, textOf(refused));
      assert.match(textOf(refused), /127\.0\.0\.2 is not allowed yet/);
      assert.doesNotMatch(textOf(refused), /482913|Transfer/);
      assert.ok(
        !beacons.heard.some((heard) => heard.startsWith('transfer-answered=')),
        'the confirm is still unanswered',
      );
      await agent.json('close_tab', {});
    });
  });
});

describe('dialog attacks (--input synthetic)', () => {
  let scene: Scene;
  let agent: Agent;

  before(async () => {
    scene = await startScene(['--launch', '--input', 'synthetic']);
    agent = scene.agent;
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(() => scene?.close());

  it('a page that stops answering during a call: "may still be running", never "call again"', async () => {
    await agent.json('open_tab', { url: `${scene.site.url}/attacks/dialogs.html?synthetic` });
    const result = await agent.call('click_run_the_report');
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /The call may still be running: it goes on once the page does/);
    assert.doesNotMatch(textOf(result), /call again/);
    // It did run, once.
    assert.equal(await evaluateIn(scene.agent.stderr, 'dialogs.html?synthetic', 'window.attack.runs'), 1);
  });
});
