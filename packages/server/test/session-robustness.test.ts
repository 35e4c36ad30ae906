import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

const text = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((c) => c.text).join('');
const settle = () => new Promise((done) => setImmediate(done));

/** Resolves at the session's next list_changed; fails after `timeoutMs` without one. */
function nextToolsChange(session: BrowserSession, timeoutMs = 5_000): Promise<void> {
  const previous = session.ontoolschanged;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no list_changed within ${timeoutMs} ms`)), timeoutMs);
    session.ontoolschanged = () => {
      previous?.();
      session.ontoolschanged = previous;
      clearTimeout(timer);
      resolve();
    };
  });
}

async function focusedShop(options: { fallbackTools?: boolean; navigationGraceMs?: number } = {}) {
  const browser = new FakeBrowser();
  const session = new BrowserSession({ connection: browser, launcher: undefined, connectGraceMs: 10, ...options });
  let changes = 0;
  session.ontoolschanged = () => {
    changes += 1;
  };
  await session.callTool('connect_browser', {});
  const opened = JSON.parse(text(await session.callTool('open_tab', { url: 'http://shop.test/' })));
  await settle();
  const names = () => session.listTools().map((tool) => tool.name);
  return { browser, session, tabId: opened.tab.id as number, names, changes: () => changes };
}

describe('BrowserSession robustness', () => {
  it('a reload that brings the same tools back announces nothing', async () => {
    const { browser, tabId, changes } = await focusedShop({ navigationGraceMs: 5_000 });
    const before = changes();
    const tools = browser.tabs.get(tabId)?.tools ?? [];
    browser.emit({ type: 'toolsChanged', tabId, tools: [] });
    await settle();
    browser.emit({ type: 'toolsChanged', tabId, tools });
    await settle();
    assert.equal(changes(), before);
  });

  it('tools that stay gone after the grace do disappear, with list_changed', async () => {
    const { browser, session, tabId, changes, names } = await focusedShop({ navigationGraceMs: 5 });
    const before = changes();
    const changed = nextToolsChange(session);
    browser.emit({ type: 'toolsChanged', tabId, tools: [] });
    await changed;
    await settle();
    assert.equal(changes(), before + 1);
    assert.deepEqual(names(), ['list_tabs', 'open_tab', 'focus_tab', 'close_tab']);
  });

  it('fallback tools: every core tool always listed, page tools reachable by name', async () => {
    const browser = new FakeBrowser();
    const session = new BrowserSession({ connection: browser, launcher: undefined, fallbackTools: true });
    const initial = session.listTools().map((tool) => tool.name);
    assert.deepEqual(initial, [
      'connect_browser',
      'list_tabs',
      'open_tab',
      'focus_tab',
      'close_tab',
      'handle_dialog',
      'list_page_tools',
      'call_page_tool',
    ]);
    assert.match(text(await session.callTool('call_page_tool', { name: 'add_to_cart' })), /connect_browser first/);
    await session.callTool('connect_browser', {});
    await session.callTool('open_tab', { url: 'http://shop.test/' });
    const listed = JSON.parse(text(await session.callTool('list_page_tools', {})));
    assert.deepEqual(
      listed.tools.map((tool: { name: string }) => tool.name),
      ['add_to_cart', 'page_list_tabs', 'weird_name_'],
    );
    assert.match(listed.tools[0].description, /^\[page http:\/\/shop\.test\]/);
    const called = await session.callTool('call_page_tool', { name: 'add_to_cart', arguments: { productId: 'p1' } });
    assert.notEqual(called.isError, true, text(called));
    assert.deepEqual(browser.calls.at(-1), {
      tabId: listed.focusedTabId,
      toolName: 'add_to_cart',
      args: { productId: 'p1' },
    });
    const bad = await session.callTool('call_page_tool', { name: 'add_to_cart', arguments: {} });
    assert.match(text(bad), /productId: required/);
    assert.match(text(await session.callTool('call_page_tool', { name: 'nope' })), /no tool "nope".*add_to_cart/);
  });

  it('a call cut off by a dropped link says so and how tabmcp recovers', async () => {
    const { browser, session } = await focusedShop();
    browser.callTool = async () => {
      throw new ProtocolError(ErrorCode.BrowserNotConnected, 'The browser extension disconnected (code 1001)');
    };
    const result = await session.callTool('add_to_cart', { productId: 'p1' });
    assert.equal(result.isError, true);
    assert.match(text(result), /disconnected.*reconnects by itself/);
  });

  it('open_tab reports progress while the page loads', async (t) => {
    const { browser, session } = await focusedShop();
    // The page loads when the test says so, a mocked second after the tab was asked for.
    t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    const original = browser.openTab.bind(browser);
    let asked: () => void = () => {};
    const opening = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let load: () => void = () => {};
    browser.openTab = (url, focus) => {
      asked();
      return new Promise((resolve) => {
        load = () => resolve(original(url, focus));
      });
    };
    const messages: string[] = [];
    const call = session.callTool('open_tab', { url: 'http://slow.test/' }, (message) => messages.push(message));
    await opening;
    t.mock.timers.tick(1_000);
    load();
    await call;
    assert.equal(messages[0], 'Opening http://slow.test/');
    assert.match(messages[1] ?? '', /^Waiting for http:\/\/slow\.test\/ to load \(1 s\)$/);
  });
});
