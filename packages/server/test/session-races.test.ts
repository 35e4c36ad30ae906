import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TabInfo, Tool } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { LinkEndpoint } from '../src/link/link-endpoint';
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
    assert.equal(
      session.focusedTabId,
      null,
      'docs/requirements.md#local-server: closing the focused tab leaves no focus',
    );
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

/** A browser whose page tool answers only when released. */
class SlowPageBrowser extends FakeBrowser {
  release: () => void = () => {};
  override async callTool(tabId: number, toolName: string, args: Record<string, unknown>) {
    await new Promise<void>((done) => (this.release = done));
    return super.callTool(tabId, toolName, args);
  }
}

describe('announcements while a core tool runs (issue 27 D22)', () => {
  it('a slow call_page_tool holds back no other list change', async () => {
    const browser = new SlowPageBrowser();
    const session = new BrowserSession({
      connection: browser,
      launcher: undefined,
      connectGraceMs: 10,
      fallbackTools: true,
    });
    let changes = 0;
    session.ontoolschanged = () => {
      changes += 1;
    };
    await session.callTool('connect_browser', {});
    const id = openedId(await session.callTool('open_tab', { url: 'http://shop.test/' }));
    await turn();
    const before = changes;
    const pending = session.callTool('call_page_tool', { name: 'add_to_cart', arguments: { productId: 'p1' } });
    await turn();
    browser.emit({ type: 'toolsChanged', tabId: id, tools: [{ name: 'checkout', inputSchema: { type: 'object' } }] });
    await turn();
    assert.equal(changes, before + 1, 'announced while the page call is still running');
    browser.release();
    await pending;
  });
});

describe('core tool definitions', () => {
  it('declare the states that offer them, as docs/requirements.md#local-server tabulates', async () => {
    const { session } = setup();
    const offered = () => session.listTools().map((tool) => tool.name);
    assert.deepEqual(offered(), ['connect_browser']);
    await session.callTool('connect_browser', {});
    assert.deepEqual(offered(), ['list_tabs', 'open_tab']);
    await session.callTool('open_tab', { url: 'http://blog.test/', focus: false });
    assert.deepEqual(offered(), ['list_tabs', 'open_tab', 'focus_tab']);
    await session.callTool('open_tab', { url: 'http://blog.test/' });
    assert.deepEqual(offered(), ['list_tabs', 'open_tab', 'focus_tab', 'close_tab']);
  });
});

describe('a focused tab that navigates to another origin (issue 27 D4)', () => {
  it("lists none of the old page's tools under the new origin's marker", async () => {
    const { browser, session } = setup();
    await session.callTool('connect_browser', {});
    const id = openedId(await session.callTool('open_tab', { url: 'http://shop.test/' }));
    assert.ok(session.listTools().some((tool) => tool.name === 'add_to_cart'));
    browser.emit({ type: 'tabUpdated', tab: { id, title: 'Elsewhere', url: 'http://evil.test/' } });
    const listed = session.listTools();
    assert.ok(!listed.some((tool) => tool.name === 'add_to_cart'), listed.map((tool) => tool.name).join(' '));
    assert.ok(!JSON.stringify(listed).includes('[page http://evil.test]'));
    // The same origin (a reload, another path) keeps them until the page says otherwise.
    const again = openedId(await session.callTool('open_tab', { url: 'http://shop.test/' }));
    browser.emit({ type: 'tabUpdated', tab: { id: again, title: 'Cart', url: 'http://shop.test/cart' } });
    assert.ok(session.listTools().some((tool) => tool.name === 'add_to_cart'));
  });
});

/** The extension's `connected` reply and a tab event arrive in one socket read: the event is heard first. */
class SameReadBrowser extends FakeBrowser {
  override async connect() {
    const snapshot = await super.connect();
    const tab = { id: 7, title: 'Shop', url: 'http://shop.test/', tools: [] };
    this.tabs.set(tab.id, tab);
    this.emit({ type: 'tabCreated', tab });
    return snapshot;
  }
}

describe('events in the same read as the connected reply (issue 27 D26)', () => {
  it('are applied after the snapshot, not dropped', async () => {
    const browser = new SameReadBrowser();
    const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10 });
    await session.callTool('connect_browser', {});
    await turn();
    assert.equal(session.state, 'CONNECTED_NO_FOCUS', 'the tab the event reported is known');
  });
});

describe('open_tab against the page changing its tools as the browser answers', () => {
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
  const page = [tool('fill_name'), tool('search')];
  /** The page's list once its payment frame answered: the frame's tools joined it. */
  const withFrame = [...page, tool('fill_card_number'), tool('click_pay')];

  /**
   * A browser whose reply to openTab carries the tools the page had as it answered, and whose next
   * message, the page's newer list, is read in the same chunk of the socket: ws hands both over in one
   * go, before the open_tab call resumes.
   */
  function raceBrowser(replyFirst: boolean) {
    const endpoint = new LinkEndpoint();
    const tab = { id: 7, title: 'Checkout', url: 'http://shop.test/checkout', active: true };
    endpoint.attach((message) => {
      setImmediate(() => {
        if (message.type === 'connect')
          endpoint.receive({
            type: 'connected',
            requestId: message.requestId,
            browser: { name: 'Chromium', version: '156.0' },
            tabs: [],
          });
        if (message.type !== 'openTab') return;
        endpoint.receive({ type: 'tabCreated', tab });
        const reply = {
          type: 'response' as const,
          requestId: message.requestId,
          result: { tab: { ...tab, tools: page }, focused: true, toolsReady: true },
        };
        const newer = { type: 'toolsChanged' as const, tabId: tab.id, tools: withFrame };
        for (const arrived of replyFirst ? [reply, newer] : [newer, reply]) endpoint.receive(arrived);
      });
    });
    return new BrowserSession({ connection: endpoint, launcher: undefined, connectGraceMs: 10 });
  }
  const pageToolNames = (session: BrowserSession) =>
    session
      .listTools()
      .map((listed) => listed.name)
      .filter((name) => withFrame.some((candidate) => candidate.name === name));

  it("a list heard after the reply is the newer one: the reply's older list does not undo it", async () => {
    const session = raceBrowser(true);
    await session.callTool('connect_browser', {});
    await session.callTool('open_tab', { url: 'http://shop.test/checkout' });
    assert.deepEqual(pageToolNames(session), ['fill_name', 'search', 'fill_card_number', 'click_pay']);
  });

  it('a list heard before the reply is older than it: the reply stands', async () => {
    const session = raceBrowser(false);
    await session.callTool('connect_browser', {});
    await session.callTool('open_tab', { url: 'http://shop.test/checkout' });
    assert.deepEqual(pageToolNames(session), ['fill_name', 'search']);
  });
});
