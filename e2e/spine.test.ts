import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { jsonOf, startTabmcp, type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';

describe('spine: a page tool called by an MCP client through real Chromium', () => {
  let site: ExampleServer;
  let tabmcp: TabmcpUnderTest;

  before(async () => {
    site = await startExampleServer();
    tabmcp = await startTabmcp();
  });

  after(async () => {
    await tabmcp?.close();
    await site?.close();
  });

  // The first two tests walk the start (DISCONNECTED, then connect_browser); every later test sets up its own
  // state, so that it passes alone as well as after them.
  const ensureConnected = async () => {
    if (!(await tabmcp.toolNames()).includes('connect_browser')) return;
    const result = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(result.isError, true, textOf(result));
  };
  /** Opens (and focuses) a shop tab of the test's own, told apart by `query`; returns its id. */
  const openShop = async (query: string) => {
    await ensureConnected();
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/shop/?${query}` });
    assert.notEqual(opened.isError, true, textOf(opened));
    await waitFor(async () => (await tabmcp.toolNames()).includes('get_cart'), 10_000, 'the shop tools');
    return jsonOf<{ tab: { id: number } }>(opened).tab.id;
  };

  it('starts DISCONNECTED with connect_browser only', async () => {
    assert.deepEqual(await tabmcp.toolNames(), ['connect_browser']);
    const premature = await tabmcp.call('list_tabs');
    assert.equal(premature.isError, true);
    assert.match(textOf(premature), /connect_browser/);
  });

  it('connect_browser launches Chromium with the extension and announces the change', async () => {
    const changed = tabmcp.nextListChanged(30_000);
    const result = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(result.isError, true, textOf(result));
    const body = jsonOf<{ connected: boolean; browser: { name: string; version: string }; tabCount: number }>(result);
    assert.equal(body.connected, true);
    assert.match(body.browser.version, /^\d+\./);
    await changed;
    const names = await tabmcp.toolNames();
    assert.ok(!names.includes('connect_browser'));
    assert.ok(names.includes('list_tabs') && names.includes('open_tab'));
  });

  it('open_tab on the demo shop brings the page tools', async () => {
    await ensureConnected();
    const listed = jsonOf<{ tabs: unknown[]; focusedTabId: number | null }>(await tabmcp.call('list_tabs'));
    assert.equal(listed.focusedTabId, null);
    const changed = tabmcp.nextListChanged();
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/shop/` });
    assert.notEqual(opened.isError, true, textOf(opened));
    const body = jsonOf<{ tab: { id: number }; focused: boolean; toolCount: number }>(opened);
    const shopTabId = body.tab.id;
    assert.equal(body.focused, true);
    await changed;
    const names = await tabmcp.toolNames();
    for (const expected of ['search_products', 'add_to_cart', 'get_cart', 'close_tab', 'focus_tab']) {
      assert.ok(names.includes(expected), `missing ${expected} in ${names}`);
    }
    // The names come with the list_changed; the answer counts them.
    assert.equal(body.toolCount, 5);
    assert.deepEqual(names.slice(-5), ['search_products', 'add_to_cart', 'get_cart', 'get_page_content', 'open_link']);
    const tools = (await tabmcp.client.listTools()).tools;
    const addToCart = tools.find((tool) => tool.name === 'add_to_cart');
    assert.ok(addToCart?.description?.startsWith(`[page ${site.url}]`));
    assert.deepEqual(addToCart?.inputSchema.required, ['productId']);
    assert.ok(addToCart?.outputSchema, 'output schema passes through whole');
    const tabs = jsonOf<{ tabs: Array<{ id: number; focused: boolean; toolCount: number }>; focusedTabId: number }>(
      await tabmcp.call('list_tabs'),
    );
    const shopTab = tabs.tabs.find((tab) => tab.id === shopTabId);
    assert.equal(shopTab?.focused, true);
    assert.equal(shopTab?.toolCount, 5, 'its three tools and the two reading tools');
    assert.equal(tabs.focusedTabId, shopTabId);
  });

  it('tools/call returns the page result and changes the page', async () => {
    await openShop('cart');
    const found = await tabmcp.call('search_products', { query: 'teapot' });
    assert.match(textOf(found), /Teapot/);
    const added = await tabmcp.call('add_to_cart', { productId: 'p3', quantity: 2 });
    assert.notEqual(added.isError, true, textOf(added));
    assert.equal((added.structuredContent as { total: number }).total, 68);
    // Look at the page itself, not through tabmcp.
    const browser = await tabmcp.cdp();
    const page = browser
      .contexts()
      .flatMap((context) => context.pages())
      .find((p) => p.url().includes('/shop/?cart'));
    assert.ok(page, 'the shop page is open in the launched browser');
    assert.equal(await page.textContent('#cart-total'), '$68.00');
  });

  it('bad arguments and unknown tools give clear errors and the server stays up', async () => {
    await openShop('bad');
    const bad = await tabmcp.call('add_to_cart', { quantity: 'two' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /productId: required/);
    assert.match(textOf(bad), /quantity: expected integer/);
    const unknown = await tabmcp.call('no_such_tool');
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /Unknown tool "no_such_tool"/);
    const pageError = await tabmcp.call('add_to_cart', { productId: 'zzz' });
    assert.equal(pageError.isError, true);
    assert.match(textOf(pageError), /No product with id zzz/);
    assert.ok(jsonOf<{ tabs: unknown[] }>(await tabmcp.call('list_tabs')).tabs.length >= 1, 'still answering');
  });

  it('a call to a tab that closed in the browser gets a clear error', async () => {
    await ensureConnected();
    const opened = jsonOf<{ tab: { id: number } }>(await tabmcp.call('open_tab', { url: `${site.url}/shop/?second` }));
    await waitFor(async () => (await tabmcp.toolNames()).includes('get_cart'), 5_000, 'second tab tools');
    const browser = await tabmcp.cdp();
    const page = browser
      .contexts()
      .flatMap((context) => context.pages())
      .find((p) => p.url().includes('?second'));
    assert.ok(page);
    const changed = tabmcp.nextListChanged();
    await page.close();
    await changed;
    const result = await tabmcp.call('get_cart');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Unknown tool "get_cart"\. No tab is focused/);
    const tabs = jsonOf<{ tabs: Array<{ id: number }> }>(await tabmcp.call('list_tabs'));
    assert.ok(!tabs.tabs.some((tab) => tab.id === opened.tab.id));
  });

  it('close_tab removes the page tools', async () => {
    const shopTabId = await openShop('close');
    await tabmcp.call('focus_tab', { tabId: shopTabId });
    assert.ok((await tabmcp.toolNames()).includes('get_cart'));
    const changed = tabmcp.nextListChanged();
    const closed = await tabmcp.call('close_tab');
    assert.deepEqual(jsonOf(closed), { closed: true, tabId: shopTabId });
    await changed;
    const names = await tabmcp.toolNames();
    assert.ok(!names.includes('get_cart') && !names.includes('close_tab'), `${names}`);
  });
});
