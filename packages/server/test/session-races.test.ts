import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TabInfo, Tool } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

const text = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((part) => part.text ?? '').join('');
const turn = () => new Promise((done) => setImmediate(done));

/** A browser where the events of a race arrive before the reply they race with. */
class RacingBrowser extends FakeBrowser {
  /** open_tab: the page closes itself as it loads (tabCreated, then tabClosed, then the reply). */
  closesOnLoad = false;
  /** focus_tab: the tab closes while the browser focuses it. */
  closesWhileFocused = false;
  /** close_tab: Chrome activates a neighbour before the reply, as it does for the active tab. */
  activatesNeighbour: number | undefined;

  override async openTab(url: string, focus: boolean) {
    const opened = await super.openTab(url, focus);
    if (this.closesOnLoad) {
      this.tabs.delete(opened.tab.id);
      this.emit({ type: 'tabClosed', tabId: opened.tab.id });
      await turn();
    }
    return opened;
  }

  override async focusTab(tabId: number) {
    const focused = await super.focusTab(tabId);
    if (this.closesWhileFocused) {
      this.tabs.delete(tabId);
      this.emit({ type: 'tabClosed', tabId });
      await turn();
    }
    return focused;
  }

  override async closeTab(tabId: number) {
    const neighbour = this.activatesNeighbour === undefined ? undefined : this.tabs.get(this.activatesNeighbour);
    if (neighbour) this.emit({ type: 'tabFocused', tabId: neighbour.id, tools: neighbour.tools });
    return super.closeTab(tabId);
  }
}

function setup(options: { followBrowserFocus?: boolean } = {}) {
  const browser = new RacingBrowser();
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10, ...options });
  return { browser, session };
}

const openedId = (result: { content: Array<{ type: string; text?: string }> }) =>
  (JSON.parse(text(result)) as { tab: { id: number } }).tab.id;

describe('the session against races with the browser (issue 27)', () => {
  it('D3: open_tab of a page that closed before the answer adds no ghost tab and focuses nothing', async () => {
    const { browser, session } = setup();
    await session.callTool('connect_browser', {});
    browser.closesOnLoad = true;
    const result = await session.callTool('open_tab', { url: 'http://shop.test/' });
    assert.equal(result.isError, true);
    assert.match(text(result), /closed before open_tab could answer/);
    assert.equal(session.state, 'CONNECTED_NO_TABS');
    assert.equal(session.focusedTabId, null);
  });

  it('D15: focus_tab racing the tab closing leaves no focus on the gone tab', async () => {
    const { browser, session } = setup();
    await session.callTool('connect_browser', {});
    const id = openedId(await session.callTool('open_tab', { url: 'http://shop.test/', focus: false }));
    browser.closesWhileFocused = true;
    const result = await session.callTool('focus_tab', { tabId: id });
    assert.equal(result.isError, true);
    assert.match(text(result), /is gone from the browser/);
    assert.equal(session.focusedTabId, null);
    assert.equal(session.state, 'CONNECTED_NO_TABS');
  });

  it('D23: with --follow-focus, close_tab leaves no focus on the tab Chrome activates in its place', async () => {
    const { browser, session } = setup({ followBrowserFocus: true });
    await session.callTool('connect_browser', {});
    const other = openedId(await session.callTool('open_tab', { url: 'http://blog.test/', focus: false }));
    const shop = openedId(await session.callTool('open_tab', { url: 'http://shop.test/' }));
    assert.equal(session.focusedTabId, shop);
    browser.activatesNeighbour = other;
    await session.callTool('close_tab', {});
    assert.equal(session.focusedTabId, null, 'browser-mcp-server.md: closing the focused tab leaves no focus');
    assert.equal(session.state, 'CONNECTED_NO_FOCUS');
    // The user activating a tab afterwards is still followed.
    browser.emit({ type: 'tabFocused', tabId: other, tools: [] });
    assert.equal(session.focusedTabId, other);
  });

  it('D21: switching the fallback tools on later renames a page tool that takes one of their names', async () => {
    const { browser, session } = setup();
    const pageTools: Tool[] = [{ name: 'call_page_tool', inputSchema: { type: 'object' } }];
    await session.callTool('connect_browser', {});
    const id = openedId(await session.callTool('open_tab', { url: 'http://blog.test/' }));
    const tab = browser.tabs.get(id) as TabInfo;
    browser.emit({ type: 'toolsChanged', tabId: tab.id, tools: pageTools });
    session.setAutoFallback(true);
    const names = session.listTools().map((tool) => tool.name);
    assert.equal(names.filter((name) => name === 'call_page_tool').length, 1, names.join(' '));
    assert.ok(names.includes('page_call_page_tool'), names.join(' '));
  });

  it('D19/D20: errors name only the steps the state offers; about: other than about:blank is refused up front', async () => {
    const { session } = setup();
    const unknown = text(await session.callTool('no_such_tool', {}));
    assert.match(unknown, /call connect_browser/);
    assert.doesNotMatch(unknown, /focus_tab|open_tab|list_tabs/, 'none of these is offered while DISCONNECTED');
    await session.callTool('connect_browser', {});
    assert.doesNotMatch(text(await session.callTool('no_such_tool', {})), /focus_tab/, 'no tab to focus yet');
    const refused = text(await session.callTool('open_tab', { url: 'about:settings' }));
    assert.match(refused, /Refusing to open "about:settings": only .*about:blank/);
    assert.doesNotMatch(refused, /\.\./);
    const described = session.listTools().find((tool) => tool.name === 'open_tab');
    assert.match(JSON.stringify(described?.inputSchema), /about:blank/);
  });
});
