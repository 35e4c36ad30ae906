import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { type CallToolResult, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ORIGIN } from '@tabmcp/protocol';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { devtoolsPortOf } from '../test-support/cdp';
import { clickIn, noPageAt, openPage, textIn } from '../test-support/cdp-person';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { serverBin } from '../test-support/paths';
import { type Machine, newMachine, type Scene, startScene } from '../test-support/server-harness';
import { type StdioMcp, startStdioMcp } from '../test-support/stdio-client';

/**
 * Issue 41: a consequential action waits for the person, who answers in the extension's own prompt
 * window (clicked here with the browser's mouse, as a person would, over CDP); the agent's answer says
 * which happened, the page is untouched by a denied action, and the popup's record lists every call
 * in order. The browser is headless (no display on CI), so the agent asks for `--confirm ask`.
 */
describe('asking the person before a consequential action', () => {
  let scene: Scene;
  let port = '';
  const page = '/widgets/checkout';
  const seen = <T>(expression: string) => evaluateIn<T>(scene.agent.stderr, page, `window.seen.${expression}`);

  before(async () => {
    scene = await startScene(['--launch', '--confirm', 'ask']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    const profileDir = await waitFor(() => /"profileDir":"([^"]+)"/.exec(scene.agent.stderr())?.[1], 10_000, 'profile');
    port = await devtoolsPortOf(profileDir, 10_000);
    await scene.agent.json('open_tab', { url: `${scene.site.url}${page}.html` });
  });
  after(() => scene?.close());
  // A prompt answered closes its window: the next test must not find the last one still closing.
  afterEach(() => noPageAt(port, '/confirm.html'));

  const payTool = async () => {
    const names = await scene.agent.toolNames();
    const name = names.find((candidate) => candidate.startsWith('pay'));
    assert.ok(name, names.join(', '));
    return name;
  };
  const card = { holder: 'Ada Lovelace', card: '4242 4242 4242 4242', cvc: '123' };

  it('a payment waits for the person; Deny refuses it and the page is unchanged', async () => {
    let settled = false;
    const answer = scene.agent.call(await payTool(), card).finally(() => {
      settled = true;
    });
    // Read once the prompt shows what it asks about (its tool is filled in from the background).
    await textIn(port, '/confirm.html', '#tool');
    const prompt = await textIn(port, '/confirm.html', 'body');
    assert.match(prompt, /Pay €20\.00/, prompt);
    assert.match(prompt, /page text from 127\.0\.0\.1/, 'the caption is marked as page text');
    assert.match(prompt, /•••• 4242/, 'the card number is masked');
    assert.ok(!prompt.includes('4242 4242'), prompt);
    assert.equal(settled, false, 'the call waits while the prompt is open');
    await clickIn(port, '/confirm.html', '#deny');
    const result = await answer;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /"confirmation":"denied by the person"/);
    assert.match(textOf(result), /nothingRan/);
    assert.equal(await seen('payments'), 0, 'nothing was paid');
  });

  it('Allow once lets it through, and the answer says the person confirmed it', async () => {
    const answer = scene.agent.call(await payTool(), card);
    await clickIn(port, '/confirm.html', '#allow-once');
    const result = await answer;
    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /confirmed by the person in the browser/);
    assert.equal(await seen('payments'), 1);
  });

  it('an action that is not consequential runs without asking', async () => {
    const result = await scene.agent.call('show_help');
    assert.notEqual(result.isError, true, textOf(result));
    assert.doesNotMatch(textOf(result), /confirmation/);
    assert.equal(await seen('help'), 1);
  });

  it('accepting a confirm dialog waits for the person too; Cancel never does', async () => {
    const opened = await scene.agent.call('clear_history');
    assert.match(textOf(opened), /"kind":"confirm"/, textOf(opened));
    const accepting = scene.agent.call('handle_dialog', { accept: true });
    assert.match(await textIn(port, '/confirm.html', '#reasons'), /Accepts a confirm dialog/);
    await clickIn(port, '/confirm.html', '#deny');
    const denied = await accepting;
    assert.equal(denied.isError, true, textOf(denied));
    assert.match(textOf(denied), /denied by the person/);
    // The dialog is still open: the agent may still cancel it, which asks nobody.
    const cancelled = await scene.agent.call('handle_dialog', { accept: false });
    assert.notEqual(cancelled.isError, true, textOf(cancelled));
    assert.equal(await seen('cleared'), 0, 'the history was not cleared');
    await scene.agent.call('clear_history');
    const allowing = scene.agent.call('handle_dialog', { accept: true });
    await clickIn(port, '/confirm.html', '#allow-once');
    const allowed = await allowing;
    assert.notEqual(allowed.isError, true, textOf(allowed));
    assert.equal(await seen('cleared'), 1);
  });

  it("the prompt's window is no tab of the agent's: list_tabs leaves it out and the focus stays", async () => {
    const name = await payTool();
    const paying = scene.agent.call(name, card);
    await textIn(port, '/confirm.html', '#tool');
    // The prompt's tab was created and focused by now; the server heard of it, or of nothing.
    const listed = await scene.agent.json<{ tabs: Array<{ url: string; focused?: boolean }> }>('list_tabs');
    // Answered before the checks, so a failing check leaves no prompt open for the next test.
    await clickIn(port, '/confirm.html', '#deny');
    assert.match(textOf(await paying), /"confirmation":"denied by the person"/);
    const said = JSON.stringify(listed);
    assert.ok(!listed.tabs.some((tab) => tab.url.startsWith(EXTENSION_ORIGIN)), said);
    assert.match(listed.tabs.find((tab) => tab.focused)?.url ?? '', /\/widgets\/checkout\.html$/, said);
  });

  it('a call that waits for the person says so before its answer: progress with a token, a log line without', async () => {
    const name = await payTool();
    const progress: string[] = [];
    const withToken = scene.agent.client.callTool({ name, arguments: card }, undefined, {
      onprogress: ({ message }) => progress.push(message ?? ''),
      resetTimeoutOnProgress: true,
    });
    await textIn(port, '/confirm.html', '#tool');
    // Denied whatever is heard, so a failing check leaves no prompt open for the next test.
    const deny = () => clickIn(port, '/confirm.html', '#deny');
    const said = await waitFor(() => progress[0], 10_000, 'a progress notification while the prompt is open').finally(
      deny,
    );
    assert.match(said, new RegExp(`waiting for the person to confirm ${name} on 127\\.0\\.0\\.1`), said);
    assert.match(said, /until \d\d:\d\d:\d\dZ at most \(45 s\)/, said);
    assert.match(textOf((await withToken) as CallToolResult), /"confirmation":"denied by the person"/);
    await noPageAt(port, '/confirm.html');

    const logged: string[] = [];
    scene.agent.client.setNotificationHandler(LoggingMessageNotificationSchema, async ({ params }) => {
      logged.push(String(params.data));
    });
    const withoutToken = scene.agent.call(name, card);
    await textIn(port, '/confirm.html', '#tool');
    const line = await waitFor(() => logged[0], 10_000, 'a log line while the prompt is open').finally(deny);
    assert.match(line, new RegExp(`waiting for the person to confirm ${name} on 127\\.0\\.0\\.1`), line);
    assert.match(textOf(await withoutToken), /"confirmation":"denied by the person"/);
    assert.equal(await seen('payments'), 1, 'only the payment allowed earlier was made');
  });

  it('"Always for this site": later actions there run unasked, and the answer says whose policy allowed them', async () => {
    const first = scene.agent.call('delete_address');
    await clickIn(port, '/confirm.html', '#allow-always');
    assert.match(textOf(await first), /confirmed by the person in the browser, who now allows/);
    const second = await scene.agent.call('delete_address');
    assert.match(textOf(second), /allowed by policy \(the user's choice for this site\)/, textOf(second));
    assert.equal(await seen('deleted'), 2);
  });

  it("the popup's record lists the calls in order, with who let them run", async () => {
    await openPage(port, `${EXTENSION_ORIGIN}/popup.html`);
    const record = await waitFor(
      async () => {
        const text = await textIn(port, '/popup.html', '#activity');
        // The record is written a moment after each call (a burst is one write): read once the last call is in.
        return /allowed by policy/.test(text) ? text : undefined;
      },
      10_000,
      'the record',
    );
    const lines = record.split('\n').filter((line) => /\d:\d\d/.test(line));
    const expected = [
      /pay_.*denied.*denied by you/,
      /pay_.*done.*confirmed by you/,
      /show_help.*done$/,
      /clear_history.*done$/,
      /handle_dialog.*denied.*denied by you/,
      /handle_dialog.*done$/,
      /clear_history.*done$/,
      /handle_dialog.*done.*confirmed by you/,
      /pay_.*denied.*denied by you/,
      /pay_.*denied.*denied by you/,
      /pay_.*denied.*denied by you/,
      /delete_address.*done.*confirmed by you/,
      /delete_address.*done.*allowed by policy/,
    ];
    assert.equal(lines.length, expected.length, record);
    for (const [index, pattern] of expected.entries()) assert.match(lines[index] ?? '', pattern, record);
  });
});

/**
 * In a headless browser nobody sees a window: an agent's client that can ask its person (MCP
 * elicitation) is asked instead, and the answer says the person answered there.
 */
describe("asking the person in the agent's client (elicitation)", () => {
  let site: ExampleServer;
  let machine: Machine;
  let agent: StdioMcp;
  const answers: string[] = [];
  const questions: string[] = [];
  const seen = (expression: string) =>
    evaluateIn<number>(agent.stderr, '/widgets/checkout', `window.seen.${expression}`);

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    agent = await startStdioMcp({
      args: [serverBin, '--headless', '--launch', '--confirm', 'ask', '--port', String(machine.port)],
      env: { TABMCP_HOME: machine.home, TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' },
      clientName: 'tabmcp-e2e-eliciting',
      elicit: async (request) => {
        questions.push(request.message);
        const answer = answers.shift() ?? 'deny';
        return { action: 'accept', content: { answer } };
      },
    });
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    await agent.call('open_tab', { url: `${site.url}/widgets/checkout.html` });
  });
  after(async () => {
    await agent?.close();
    await site?.close();
    machine?.close();
  });

  it('Deny in the client refuses the deletion; Allow once runs it; each answer says the client answered', async () => {
    answers.push('deny');
    const denied = await agent.call('delete_address');
    assert.equal(denied.isError, true, textOf(denied));
    assert.match(textOf(denied), /denied this action in the agent's client \(MCP elicitation\)/);
    assert.match(questions[0] ?? '', /delete_address[\s\S]*page text from 127\.0\.0\.1\): "Delete address"/);
    assert.equal(await seen('deleted'), 0);
    answers.push('once');
    const allowed = await agent.call('delete_address');
    assert.notEqual(allowed.isError, true, textOf(allowed));
    assert.match(textOf(allowed), /confirmed by the person in the agent's client/);
    assert.equal(await seen('deleted'), 1);
    assert.equal(questions.length, 2, 'one question per consequential call');
    // Not consequential: nobody is asked.
    await agent.call('show_help');
    assert.equal(questions.length, 2);
  });
});

/**
 * A tool the page publishes is judged by its annotations, which the hub holds: the gate asks the tab
 * nothing before it (only tabmcp's own reading tools are described), and a tool marked destructive
 * still waits for the person on a site that asks.
 */
describe("a page's own tool marked destructive", () => {
  let scene: Scene;
  let port = '';
  const shop = '/shop/index.html';

  before(async () => {
    scene = await startScene(['--launch', '--confirm', 'ask']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    const profileDir = await waitFor(() => /"profileDir":"([^"]+)"/.exec(scene.agent.stderr())?.[1], 10_000, 'profile');
    port = await devtoolsPortOf(profileDir, 10_000);
    await scene.agent.json('open_tab', { url: `${scene.site.url}${shop}` });
    await evaluateIn(
      scene.agent.stderr,
      shop,
      `(shop.addTool({ name: 'empty_cart', description: 'Empties the cart', inputSchema: { type: 'object', properties: {} },
          annotations: { destructiveHint: true } }, () => { window.emptied = (window.emptied ?? 0) + 1; return { emptied: true }; }), true)`,
    );
    await waitFor(async () => (await scene.agent.toolNames()).includes('empty_cart'), 10_000, 'empty_cart listed');
  });
  after(() => scene?.close());

  it('waits for the person, and Deny refuses it; a read-only tool runs unasked', async () => {
    const emptying = scene.agent.call('empty_cart');
    assert.match(await textIn(port, '/confirm.html', '#reasons'), /marks this tool destructive/i);
    await clickIn(port, '/confirm.html', '#deny');
    const denied = await emptying;
    assert.equal(denied.isError, true, textOf(denied));
    assert.match(textOf(denied), /denied by the person/);
    assert.equal(await evaluateIn<number>(scene.agent.stderr, shop, 'window.emptied ?? 0'), 0);
    const cart = await scene.agent.call('get_cart');
    assert.notEqual(cart.isError, true, textOf(cart));
    assert.doesNotMatch(textOf(cart), /confirmation/);
  });
});

/** The `all` view's calls by hub name pass the same gate, and say the same while they wait. */
describe('a call by hub name (--view all) waiting for the person', () => {
  let scene: Scene;
  let port = '';

  before(async () => {
    scene = await startScene(['--launch', '--confirm', 'ask', '--view', 'all']);
    await waitFor(async () => (await scene.agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
    const profileDir = await waitFor(() => /"profileDir":"([^"]+)"/.exec(scene.agent.stderr())?.[1], 10_000, 'profile');
    port = await devtoolsPortOf(profileDir, 10_000);
    await scene.agent.json('open_tab', { url: `${scene.site.url}/widgets/checkout.html` });
  });
  after(() => scene?.close());

  it('hears progress saying so before the answer', async () => {
    const name = await waitFor(
      async () => (await scene.agent.toolNames()).find((candidate) => /^website_tool_.*_pay_/.test(candidate)),
      10_000,
      'the pay tool under its hub name',
    );
    const progress: string[] = [];
    const paying = scene.agent.client.callTool(
      { name, arguments: { holder: 'Ada Lovelace', card: '4242 4242 4242 4242', cvc: '123' } },
      undefined,
      { onprogress: ({ message }) => progress.push(message ?? ''), resetTimeoutOnProgress: true },
    );
    await textIn(port, '/confirm.html', '#tool');
    const said = await waitFor(() => progress[0], 10_000, 'a progress notification while the prompt is open');
    await clickIn(port, '/confirm.html', '#deny');
    assert.match(textOf((await paying) as CallToolResult), /"confirmation":"denied by the person"/);
    assert.match(said, /waiting for the person to confirm pay_\S* on 127\.0\.0\.1/, said);
  });
});
