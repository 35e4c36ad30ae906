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
  onCreateTab: (request: ProxyRequest, proxy: ScriptedProxy) => void = () => {};

  answer(request: ProxyRequest, proxy: ScriptedProxy): void {
    const { method, params } = request;
    if (method === 'getTabs' && params.sinceVersion === this.version) this.waitingPolls.push(request);
    else if (method === 'getTabs') proxy.send(this.tabsAnswer(request));
    else if (method === 'listPageTools' && this.holdToolLists) this.heldToolLists.push(request);
    else if (method === 'listPageTools') proxy.send(request.answer({ tabId: params.tabId, tools: catalogTools }));
    else if (method === 'createTab') this.onCreateTab(request, proxy);
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
    for (const poll of browser.waitingPolls.splice(0)) proxy.send(browser.tabsAnswer(poll));
    await waitFor(() => browser.heldToolLists.length > 0, 5_000, "the poll's listPageTools");
    const opened = await session.callTool('open_tab', { url: checkout.url });
    assert.ok(!opened.isError, JSON.stringify(opened));
    assert.equal(session.focusedTabId, checkout.id);

    browser.holdToolLists = false;
    for (const held of browser.heldToolLists.splice(0))
      proxy.send(held.answer({ tabId: held.params.tabId, tools: catalogTools }));
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
