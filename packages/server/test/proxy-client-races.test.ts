import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { RemoteTabInfo, TabInfo } from '@tabmcp/protocol';
import { waitFor } from '../../../test-support/wait';
import type { BrowserEvent } from '../src/core/browser-connection';
import { ProxyBrowserConnection } from '../src/proxy-client/proxy-browser-connection';
import { ProxySession } from '../src/proxy-client/proxy-session';
import { type ProxyRequest, type ScriptedProxy, startScriptedProxy } from './scripted-proxy';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
const checkout: TabInfo = { id: 7, title: 'Checkout', url: 'http://shop.test/checkout', active: true };
/** A tab whose tools are too big to ride along in getTabs: the client fetches them with listPageTools. */
const catalog: RemoteTabInfo = { id: 3, title: 'Catalog', url: 'http://shop.test/', toolsOmitted: true, toolCount: 1 };
const catalogTools = [tool('search_catalog')];

/**
 * The extension's side as the proxy relays it: the tabs and their version, getTabs answered at once
 * unless it asks since the current version (then it waits, as the extension's long poll does).
 */
class ScriptedBrowser {
  version = 1;
  tabs: RemoteTabInfo[] = [];
  readonly waitingPolls: ProxyRequest[] = [];
  readonly heldToolLists: ProxyRequest[] = [];
  holdToolLists = false;
  /** The browser's own answer to createTab, activateTab, closeTab; or to any request it takes over (true). */
  onCreateTab: (request: ProxyRequest, proxy: ScriptedProxy) => void = () => {};
  onTabCall: (request: ProxyRequest, proxy: ScriptedProxy) => void = () => {};
  takeOver: (request: ProxyRequest, proxy: ScriptedProxy) => boolean = () => false;

  answer(request: ProxyRequest, proxy: ScriptedProxy): void {
    const { method, params } = request;
    if (this.takeOver(request, proxy)) return;
    if (method === 'getTabs' && params.sinceVersion === this.version) this.waitingPolls.push(request);
    else if (method === 'getTabs') proxy.send(this.tabsAnswer(request));
    else if (method === 'listPageTools' && this.holdToolLists) this.heldToolLists.push(request);
    else if (method === 'listPageTools') proxy.send(request.answer({ tabId: params.tabId, tools: catalogTools }));
    else if (method === 'createTab') this.onCreateTab(request, proxy);
    else this.onTabCall(request, proxy);
  }

  /** Answers the long polls waiting for a change (call after `change`). */
  answerPolls(proxy: ScriptedProxy): void {
    for (const poll of this.waitingPolls.splice(0)) proxy.send(this.tabsAnswer(poll));
  }

  /** Lets the tool lists held so far go. */
  releaseToolLists(proxy: ScriptedProxy): void {
    this.holdToolLists = false;
    for (const held of this.heldToolLists.splice(0))
      proxy.send(held.answer({ tabId: held.params.tabId, tools: catalogTools }));
  }

  tabsAnswer(request: ProxyRequest) {
    return request.answer({ version: this.version, browser: { name: 'Chromium', version: '156.0' }, tabs: this.tabs });
  }

  change(tabs: RemoteTabInfo[]): void {
    this.tabs = tabs;
    this.version += 1;
  }

  /** The client asks for changes since the newest version: it has applied everything there is. */
  pollIsCurrent = (proxy: ScriptedProxy) => () =>
    proxy.seen.some((request) => request.method === 'getTabs' && request.params.sinceVersion === this.version);
}

const openReply = (request: ProxyRequest, tab: TabInfo) =>
  request.answer({ tabId: tab.id, url: tab.url, title: tab.title, tab, toolsReady: true });

async function tabsListed(session: ProxySession) {
  const listed = await session.callTool('list_tabs', {});
  const [first] = listed.content;
  assert.ok(first?.type === 'text' && typeof first.text === 'string', JSON.stringify(listed));
  return (JSON.parse(first.text) as { tabs: Array<{ id: number; title: string }> }).tabs;
}

async function connectedSession(browser: ScriptedBrowser) {
  const proxy = await startScriptedProxy((request, scripted) => browser.answer(request, scripted));
  const connection = new ProxyBrowserConnection({ proxyUrl: proxy.url, token: 'token' });
  const events: BrowserEvent[] = [];
  connection.on('event', (event) => events.push(event));
  const session = new ProxySession(connection, { connectGraceMs: 5_000 });
  connection.start();
  const connected = await session.callTool('connect_browser', {});
  assert.ok(!connected.isError, JSON.stringify(connected));
  await waitFor(browser.pollIsCurrent(proxy), 5_000, 'the long poll to wait for changes');
  return { proxy, connection, session, events };
}

const pageToolNames = (session: ProxySession) =>
  session
    .listTools()
    .map((listed) => listed.name)
    .filter((name) => ['fill_name', 'fill_card_number', 'search_catalog'].includes(name));

describe('open_tab through the proxy while the getTabs long poll answers', () => {
  const cleanups: Array<() => unknown> = [];
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("a poll answer read right after open_tab's reply is the newer list: the reply does not undo it", async () => {
    const browser = new ScriptedBrowser();
    browser.onCreateTab = (request, proxy) => {
      // The page's card frame answered just after the extension built its reply: the long poll, woken
      // by the change, answers in the same read of the socket.
      browser.change([{ ...checkout, tools: [tool('fill_name'), tool('fill_card_number')] }]);
      const reply = openReply(request, { ...checkout, tools: [tool('fill_name')] });
      const polls = browser.waitingPolls.splice(0).map((poll) => browser.tabsAnswer(poll));
      proxy.sendTogether([reply, ...polls]);
    };
    const { proxy, connection, session } = await connectedSession(browser);
    cleanups.push(() => connection.close(), proxy.close);

    const opened = await session.callTool('open_tab', { url: checkout.url });
    assert.ok(!opened.isError, JSON.stringify(opened));
    await waitFor(browser.pollIsCurrent(proxy), 5_000, 'the poll to take in the newest version');
    assert.deepEqual(pageToolNames(session), ['fill_name', 'fill_card_number']);
  });

  it('a poll answer read before the reply but finished after it does not take the opened tab away', async () => {
    const browser = new ScriptedBrowser();
    browser.tabs = [catalog];
    browser.onCreateTab = (request, proxy) => {
      browser.change([catalog, { ...checkout, tools: [tool('fill_name')] }]);
      proxy.send(openReply(request, { ...checkout, tools: [tool('fill_name')] }));
    };
    const { proxy, connection, session, events } = await connectedSession(browser);
    cleanups.push(() => connection.close(), proxy.close);

    // The catalog's title changes: the poll's answer does not have the checkout tab yet, and the
    // poll waits for the catalog's tools (held) while open_tab runs and answers.
    browser.holdToolLists = true;
    browser.change([{ ...catalog, title: 'Catalog (2)' }]);
    browser.answerPolls(proxy);
    await waitFor(() => browser.heldToolLists.length > 0, 5_000, "the poll's listPageTools");
    const opened = await session.callTool('open_tab', { url: checkout.url });
    assert.ok(!opened.isError, JSON.stringify(opened));
    assert.equal(session.focusedTabId, checkout.id);

    browser.releaseToolLists(proxy);
    await waitFor(browser.pollIsCurrent(proxy), 5_000, 'the poll to take in the newest version');
    assert.deepEqual(
      events.filter((event) => event.type === 'tabClosed'),
      [],
      'the older answer closed no tab',
    );
    assert.equal(session.focusedTabId, checkout.id, 'the opened tab keeps the focus');
    assert.deepEqual(pageToolNames(session), ['fill_name']);
  });
});

describe('the other calls through the proxy against the getTabs long poll', () => {
  const cleanups: Array<() => unknown> = [];
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("a poll answer read before close_tab's reply but finished after it does not bring the tab back", async () => {
    const browser = new ScriptedBrowser();
    const opened = { ...checkout, tools: [tool('fill_name')] };
    browser.tabs = [catalog, opened];
    browser.onTabCall = (request, proxy) => {
      if (request.method === 'activateTab')
        proxy.send(request.answer({ tabId: opened.id, url: opened.url, title: opened.title, tab: opened }));
      if (request.method !== 'closeTab') return;
      browser.change(browser.tabs.filter((tab) => tab.id !== request.params.tabId));
      proxy.send(request.answer({ closed: true, tabId: request.params.tabId }));
    };
    const { proxy, connection, session, events } = await connectedSession(browser);
    cleanups.push(() => connection.close(), proxy.close);
    const focused = await session.callTool('focus_tab', { tabId: opened.id });
    assert.ok(!focused.isError, JSON.stringify(focused));

    browser.holdToolLists = true;
    browser.change([{ ...catalog, title: 'Catalog (2)' }, opened]);
    browser.answerPolls(proxy);
    await waitFor(() => browser.heldToolLists.length > 0, 5_000, "the poll's listPageTools");
    const closed = await session.callTool('close_tab', { tabId: opened.id });
    assert.ok(!closed.isError, JSON.stringify(closed));
    const heardBefore = events.length;

    browser.releaseToolLists(proxy);
    await waitFor(browser.pollIsCurrent(proxy), 5_000, 'the poll to take in the newest version');
    assert.deepEqual(
      events.slice(heardBefore).filter((event) => event.type === 'tabCreated'),
      [],
      'the older answer created no tab',
    );
    assert.deepEqual(
      (await tabsListed(session)).map((tab) => tab.id),
      [catalog.id],
    );
  });

  it("focus_tab's reply read just before the poll's newer answer does not put the older title back", async () => {
    const browser = new ScriptedBrowser();
    const cart: TabInfo = { id: 8, title: 'Cart', url: 'http://shop.test/cart', tools: [] };
    browser.tabs = [cart];
    browser.onTabCall = (request, proxy) => {
      if (request.method !== 'activateTab') return;
      browser.change([{ ...cart, title: 'Cart (1 item)', active: true }]);
      const reply = request.answer({
        tabId: cart.id,
        url: cart.url,
        title: cart.title,
        tab: { ...cart, active: true },
      });
      const polls = browser.waitingPolls.splice(0).map((poll) => browser.tabsAnswer(poll));
      proxy.sendTogether([reply, ...polls]);
    };
    const { proxy, connection, session } = await connectedSession(browser);
    cleanups.push(() => connection.close(), proxy.close);

    const focused = await session.callTool('focus_tab', { tabId: cart.id });
    assert.ok(!focused.isError, JSON.stringify(focused));
    await waitFor(browser.pollIsCurrent(proxy), 5_000, 'the poll to take in the newest version');
    assert.deepEqual(
      (await tabsListed(session)).map((tab) => tab.title),
      ['Cart (1 item)'],
    );
  });

  it("connect's tabs are not undone by an older poll answer the session held while connecting", async () => {
    const browser = new ScriptedBrowser();
    const leaving: TabInfo = { id: 5, title: 'Leaving', url: 'http://shop.test/bye', tools: [] };
    browser.tabs = [catalog, leaving];
    let firstLook: ProxyRequest | undefined;
    // The poll's first look is answered with both tabs, read in one chunk with connect's answer, which
    // comes after the tab closed.
    browser.takeOver = (request, proxy) => {
      if (request.method !== 'getTabs' || request.params.sinceVersion !== undefined) return false;
      if (!firstLook) {
        firstLook = request;
        return true;
      }
      const older = browser.tabsAnswer(firstLook);
      browser.change([catalog]);
      proxy.sendTogether([older, browser.tabsAnswer(request)]);
      browser.takeOver = () => false;
      return true;
    };
    const { proxy, connection, session } = await connectedSession(browser);
    cleanups.push(() => connection.close(), proxy.close);

    assert.deepEqual(
      (await tabsListed(session)).map((tab) => tab.id),
      [catalog.id],
    );
  });
});
