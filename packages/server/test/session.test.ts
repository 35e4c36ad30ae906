import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrowserSession } from '../src/core/session';
import { FakeBrowser } from './fake-connection';

function setup(options: { launcher?: boolean } = {}) {
  const browser = new FakeBrowser();
  const launched: string[] = [];
  const session = new BrowserSession({
    connection: browser,
    launcher: options.launcher ? { launch: async () => void launched.push('launched') } : undefined,
    connectGraceMs: 10,
  });
  let changes = 0;
  session.ontoolschanged = () => {
    changes += 1;
  };
  const names = () => session.listTools().map((tool) => tool.name);
  const settle = () => new Promise((done) => setImmediate(done));
  return { browser, session, names, changes: () => changes, settle, launched };
}

const text = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((c) => c.text).join('');

describe('BrowserSession state machine', () => {
  it('walks the states of docs/requirements.md#local-server with one list_changed per visible change', async () => {
    const { session, names, changes, settle, browser } = setup();
    assert.deepEqual(names(), ['connect_browser']);
    assert.equal(session.state, 'DISCONNECTED');

    await session.callTool('connect_browser', {});
    await settle();
    assert.equal(session.state, 'CONNECTED_NO_TABS');
    assert.deepEqual(names(), ['list_tabs', 'open_tab']);
    assert.equal(changes(), 1);

    const opened = JSON.parse(text(await session.callTool('open_tab', { url: 'http://shop.test/' })));
    await settle();
    assert.equal(session.state, 'TAB_FOCUSED');
    assert.equal(opened.toolCount, 3, 'the list_changed brings the names');
    assert.deepEqual(names(), [
      'list_tabs',
      'open_tab',
      'focus_tab',
      'close_tab',
      'add_to_cart',
      'page_list_tabs',
      'weird_name_',
    ]);
    assert.equal(changes(), 2);

    await session.callTool('open_tab', { url: 'http://other.test/', focus: false });
    await settle();
    assert.equal(changes(), 2, 'an unfocused tab does not change the list');

    await session.callTool('close_tab', {});
    await settle();
    assert.equal(session.state, 'CONNECTED_NO_FOCUS');
    assert.deepEqual(names(), ['list_tabs', 'open_tab', 'focus_tab']);
    assert.equal(changes(), 3);

    const [otherId] = [...browser.tabs.keys()];
    assert.match(text(await session.callTool('close_tab', { tabId: otherId })), /needs a focused tab/);
    await session.callTool('focus_tab', { tabId: otherId });
    await session.callTool('close_tab', { tabId: otherId });
    await settle();
    assert.equal(session.state, 'CONNECTED_NO_TABS');
  });

  it('routes page tools to the focused tab under their exposed names and validates arguments first', async () => {
    const { session, browser } = setup();
    await session.callTool('connect_browser', {});
    await session.callTool('open_tab', { url: 'http://shop.test/' });
    const bad = await session.callTool('add_to_cart', { productId: 5 });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /arguments\.productId: expected string, got integer/);
    assert.equal(browser.calls.length, 0);
    await session.callTool('page_list_tabs', {});
    await session.callTool('add_to_cart', { productId: 'p1' });
    assert.deepEqual(
      browser.calls.map((call) => call.toolName),
      ['list_tabs', 'add_to_cart'],
    );
  });

  it('answers core tools that do not fit the state with what to do instead', async () => {
    const { session } = setup();
    assert.match(text(await session.callTool('open_tab', { url: 'http://x.test' })), /call connect_browser first/);
    await session.callTool('connect_browser', {});
    assert.match(text(await session.callTool('connect_browser', {})), /already connected/);
    assert.match(text(await session.callTool('focus_tab', { tabId: 1 })), /needs an open tab/);
    const invalid = await session.callTool('open_tab', { url: 'not a url' });
    assert.equal(invalid.isError, true);
    assert.match(text(invalid), /Invalid URL/);
    assert.match(text(await session.callTool('open_tab', { url: 'javascript:alert(1)' })), /Refusing/);
    assert.match(text(await session.callTool('open_tab', {})), /url/);
  });

  it('returns "No browser found" with instructions when nothing connects', async () => {
    const { session, browser } = setup();
    browser.isUp = false;
    const result = await session.callTool('connect_browser', {});
    assert.equal(result.isError, true);
    const body = JSON.parse(text(result));
    assert.equal(body.connected, false);
    assert.equal(body.error, 'No browser found');
    assert.match(body.instructions, /launch=true/);
  });

  it('follows browser events: closed focused tab, tool changes, link drop and recovery', async () => {
    const { session, browser, names, settle, changes } = setup();
    await session.callTool('connect_browser', {});
    const opened = JSON.parse(text(await session.callTool('open_tab', { url: 'http://shop.test/' })));
    await settle();
    const before = changes();

    browser.emit({
      type: 'toolsChanged',
      tabId: opened.tab.id,
      tools: [{ name: 'only_one', inputSchema: { type: 'object' } }],
    });
    await settle();
    assert.equal(changes(), before + 1);
    assert.ok(names().includes('only_one'));

    browser.emit({
      type: 'toolsChanged',
      tabId: opened.tab.id,
      tools: [{ name: 'only_one', inputSchema: { type: 'object' } }],
    });
    await settle();
    assert.equal(changes(), before + 1, 'identical tools do not re-announce');

    browser.drop();
    await settle();
    assert.equal(session.state, 'DISCONNECTED');
    assert.deepEqual(names(), ['connect_browser']);

    browser.up();
    await settle();
    await settle();
    assert.equal(session.state, 'TAB_FOCUSED', 'recovers by itself and keeps the focus');

    browser.emit({ type: 'tabClosed', tabId: opened.tab.id });
    await settle();
    assert.equal(session.focusedTabId, null);
    assert.ok(!names().includes('only_one'));
  });

  it('launches a browser when asked', async () => {
    const { session, browser, launched } = setup({ launcher: true });
    browser.isUp = false;
    const launch = session.callTool('connect_browser', { launch: true });
    browser.isUp = true;
    const result = await launch;
    assert.notEqual(result.isError, true, text(result));
    assert.deepEqual(launched, ['launched']);
  });
});
