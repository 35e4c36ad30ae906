import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const json = (result: { content: unknown[] }) => JSON.parse(text(result));

/** Issue 14: a focus_tab the browser refuses for a tab it still has changes nothing but says why. */
describe('focus_tab that the browser fails', () => {
  it('keeps the tab and the focus as they were, answers the error, and sends no list_changed', async () => {
    const browser = new FakeBrowser();
    browser.tabs.set(7, { id: 7, title: 'Shop', url: 'http://shop.test/', tools: [] });
    browser.tabs.set(8, { id: 8, title: 'Notes', url: 'http://notes.test/', tools: [] });
    const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
    await session.callTool('connect_browser', {});
    assert.notEqual((await session.callTool('focus_tab', { tabId: 7 })).isError, true);
    await new Promise((turn) => setImmediate(turn));
    let notified = 0;
    session.ontoolschanged = () => {
      notified++;
    };
    const names = session.listTools().map((tool) => tool.name);

    browser.focusFailure = new ProtocolError(ErrorCode.InternalError, 'The window of tab 8 is closing');
    const failed = await session.callTool('focus_tab', { tabId: 8 });
    assert.equal(failed.isError, true);
    assert.match(text(failed), /The window of tab 8 is closing/);
    await new Promise((turn) => setImmediate(turn));

    const tabs = json(await session.callTool('list_tabs', {}));
    assert.deepEqual(
      tabs.tabs.map((tab: { id: number }) => tab.id),
      [7, 8],
    );
    assert.equal(tabs.focusedTabId, 7);
    assert.deepEqual(
      session.listTools().map((tool) => tool.name),
      names,
    );
    assert.equal(notified, 0);

    browser.focusFailure = undefined;
    assert.equal(json(await session.callTool('focus_tab', { tabId: 8 })).success, true);
    assert.equal(session.focusedTabId, 8);
  });
});
