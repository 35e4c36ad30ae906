import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CallToolResult, HANDLE_DIALOG_CALL, type Tool, withDocument } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { AllView } from '../src/views/all-view';
import { FakeBrowser, HubBrowser } from './fake-connection';

/** Issue 37: handle_dialog is listed only while the focused tab has a dialog an answer showed (decision 353). */
const text = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
const dialogAnswer = (id: string) =>
  text({ dialog: { id, kind: 'confirm', text: '[page dialog text from http://shop.test] Sure?' }, note: 'Blocked.' });

/** A browser whose page and handle_dialog answers the test sets, call by call. */
class DialogBrowser extends FakeBrowser {
  answers: CallToolResult[] = [];
  override async callTool(tabId: number, toolName: string, args: Record<string, unknown>) {
    this.calls.push({ tabId, toolName, args });
    return this.answers.shift() ?? text({ done: 'ok' });
  }
}

async function focusedShop(browser = new DialogBrowser()) {
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
  const heard: string[] = [];
  session.ontoolschanged = () => heard.push(listsDialogTool(session) ? 'listed' : 'unlisted');
  await session.callTool('connect_browser', {});
  await session.callTool('open_tab', { url: 'http://shop.test/' });
  await new Promise((turn) => setImmediate(turn));
  heard.length = 0;
  return { browser, session, heard, tabId: session.focusedTabId ?? -1 };
}

const listsDialogTool = (session: { listTools(): Array<{ name: string }> }) =>
  session.listTools().some((tool) => tool.name === 'handle_dialog');

describe('handle_dialog in the tool list', () => {
  it('is left out after open_tab, yet callable, answering as the extension does', async () => {
    const { browser, session } = await focusedShop();
    assert.equal(listsDialogTool(session), false);
    browser.answers.push({ content: [{ type: 'text', text: 'No dialog is open in tab 100.' }], isError: true });
    const answer = await session.callTool('handle_dialog', { accept: true });
    assert.match((answer.content[0] as { text: string }).text, /No dialog is open/);
    assert.equal(browser.calls.at(-1)?.toolName, HANDLE_DIALOG_CALL);
    assert.equal(listsDialogTool(session), false);
  });

  it('is published when an answer shows a dialog, before the answer is returned, and leaves once answered', async () => {
    const { browser, session, heard } = await focusedShop();
    browser.answers.push(dialogAnswer('d1'));
    const shown = session.callTool('add_to_cart', { productId: 'p1' });
    const heardBeforeAnswer = await shown.then(() => [...heard]);
    assert.deepEqual(heardBeforeAnswer, ['listed']);

    // handle_dialog naming the next dialog keeps it; one naming none removes it.
    browser.answers.push(dialogAnswer('d2'), text({ done: 'Accepted the alert dialog.' }));
    await session.callTool('handle_dialog', { accept: true });
    assert.equal(listsDialogTool(session), true);
    await session.callTool('handle_dialog', { accept: true });
    assert.deepEqual(heard, ['listed', 'unlisted']);
  });

  it('a refusal showing the open dialog lists it too', async () => {
    const { browser, session } = await focusedShop();
    browser.answers.push({ ...dialogAnswer('d3'), isError: true });
    await session.callTool('add_to_cart', { productId: 'p1' });
    assert.equal(listsDialogTool(session), true);
  });

  it('follows the focused tab: hidden on a switch away, back on a switch back', async () => {
    const { browser, session, tabId } = await focusedShop();
    browser.answers.push(dialogAnswer('d1'));
    await session.callTool('add_to_cart', { productId: 'p1' });
    await session.callTool('open_tab', { url: 'http://blog.test/' });
    assert.equal(listsDialogTool(session), false);
    await session.callTool('focus_tab', { tabId });
    assert.equal(listsDialogTool(session), true);
  });

  it('leaves when the tab shows another document, closes, or the link drops', async () => {
    const { browser, session, tabId } = await focusedShop();
    const tools = (document: string): Tool[] => [
      withDocument({ name: 'add_to_cart', inputSchema: { type: 'object' } }, document),
    ];
    browser.emit({ type: 'toolsChanged', tabId, tools: tools('docone1') });
    browser.answers.push(dialogAnswer('d1'));
    await session.callTool('add_to_cart', {});
    browser.emit({ type: 'toolsChanged', tabId, tools: tools('docone1') });
    assert.equal(listsDialogTool(session), true, 'the same document keeps it');
    browser.emit({ type: 'toolsChanged', tabId, tools: tools('doctwo2') });
    assert.equal(listsDialogTool(session), false, 'another document ends it');

    browser.answers.push(dialogAnswer('d2'));
    await session.callTool('add_to_cart', {});
    browser.drop();
    browser.up();
    await session.callTool('connect_browser', {});
    await session.callTool('focus_tab', { tabId });
    assert.equal(listsDialogTool(session), false, 'a dropped link ends it');

    browser.answers.push(dialogAnswer('d3'));
    await session.callTool('add_to_cart', {});
    browser.emit({ type: 'tabClosed', tabId });
    browser.emit({ type: 'tabCreated', tab: { id: tabId, title: 'Shop', url: 'http://shop.test/', tools: [] } });
    await session.callTool('focus_tab', { tabId });
    assert.equal(listsDialogTool(session), false, 'a closed tab ends it');
  });

  it('odd answers list nothing and break nothing', async () => {
    const { browser, session } = await focusedShop();
    const odd = ['{"dialog": 5}', '{"dialog": {"id": "d1"', '"dialog"', `{"dialog":{"id":"${'x'.repeat(100)}"}}`];
    browser.answers.push(...odd.map((body) => ({ content: [{ type: 'text' as const, text: body }] })));
    for (const _ of odd) await session.callTool('add_to_cart', {});
    browser.answers.push({ content: [{ type: 'image', data: '', mimeType: 'image/png' }] });
    await session.callTool('add_to_cart', {});
    assert.equal(listsDialogTool(session), false);
  });

  it('the `all` view lists it whenever a tab is focused: its page answers come through the hub', async () => {
    const browser = new HubBrowser();
    const view = new AllView(
      new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 }),
      browser,
    );
    await view.callTool('connect_browser', {});
    assert.equal(listsDialogTool(view), false);
    await view.callTool('open_tab', { url: 'http://shop.test/' });
    assert.equal(listsDialogTool(view), true);
  });
});
