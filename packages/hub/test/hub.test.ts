import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hub, type HubOptions, MemoryHubStore, type TabOpener } from '@tabmcp/hub';
import { ErrorCode, mayHaveRun, ProtocolError, type Tool } from '@tabmcp/protocol';
import { MemoryTransport, tool } from './memory-transport';

const SHOP = 'http://127.0.0.1:8080/shop/';
const BLOG = 'http://localhost:9090/blog/';

function makeHub(options: Partial<HubOptions> = {}) {
  const transport = new MemoryTransport();
  const store = new MemoryHubStore();
  const hub = new Hub({ transport, store, retryDelayMs: 5, requestTimeoutMs: 2_000, openWaitMs: 2_000, ...options });
  return { hub, transport, store };
}

function names(hub: Hub): string[] {
  return hub.hubTools().map((entry) => entry.name);
}

async function rejection(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

describe('hub: registration and names', () => {
  it('names every tab tool website_tool_<domain>_tab<N>_<name> and keeps schemas whole', () => {
    const { hub, transport } = makeHub();
    const rich = tool('add_to_cart', {
      title: 'Add to cart',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      outputSchema: { type: 'object', properties: { total: { type: 'number' } } },
      annotations: { destructiveHint: false, idempotentHint: true },
    });
    transport.connect(1, SHOP, [rich, tool('search')]);
    transport.connect(2, BLOG, [tool('search')]);
    assert.deepEqual(names(hub), [
      'website_tool_127_0_0_1_8080_tab1_add_to_cart',
      'website_tool_127_0_0_1_8080_tab1_search',
      'website_tool_localhost_9090_tab1_search',
    ]);
    const exposed = hub.hubTools()[0];
    assert.deepEqual(exposed?.inputSchema, rich.inputSchema);
    assert.deepEqual(exposed?.outputSchema, rich.outputSchema);
    assert.deepEqual(exposed?.annotations, rich.annotations);
    assert.equal(exposed?.title, 'Add to cart (from http://127.0.0.1:8080)', 'page titles carry their origin');
    assert.equal(exposed?.description, '[page http://127.0.0.1:8080, tab 1] The add_to_cart tool');
    assert.deepEqual(hub.capabilities(), { multiTabSupport: true, cacheSupported: false, elicitation: false });
  });

  it('gives two tabs of one site their own numbers, and marks the active tab', () => {
    const { hub, transport } = makeHub();
    transport.connect(11, SHOP, [tool('search')]);
    transport.connect(12, `${SHOP}?page=2`, [tool('search')]);
    assert.deepEqual(names(hub), [
      'website_tool_127_0_0_1_8080_tab1_search',
      'website_tool_127_0_0_1_8080_tab2_search',
    ]);
    const changes: Tool[][] = [];
    hub.onHubToolsChanged((tools) => changes.push(tools));
    hub.setActiveTab(12);
    assert.equal(changes.length, 1, 'the active marker is refreshed');
    assert.match(hub.hubTools()[1]?.description ?? '', /tab 2 • active\]/);
    assert.doesNotMatch(hub.hubTools()[0]?.description ?? '', /active/);
    hub.setActiveTab(12);
    assert.equal(changes.length, 1, 'no change, no announcement');
  });

  it('keeps tab numbers stable: a reload keeps its number, a freed number goes to no other tab (issue 27 H1)', () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('a')]);
    transport.connect(2, SHOP, [tool('a')]);
    transport.connect(3, SHOP, [tool('a')]);
    transport.disconnect(1);
    assert.deepEqual(names(hub), ['website_tool_127_0_0_1_8080_tab2_a', 'website_tool_127_0_0_1_8080_tab3_a']);
    // Tab 3 reloads (its page goes, then registers again): it stays tab3, never takes the freed 1.
    transport.disconnect(3);
    transport.connect(3, SHOP, [tool('a')]);
    transport.disconnect(2);
    transport.connect(2, SHOP, [tool('a')]);
    assert.deepEqual(names(hub), ['website_tool_127_0_0_1_8080_tab2_a', 'website_tool_127_0_0_1_8080_tab3_a']);
    // A new tab of the site gets a number no tab had: the name an agent holds for tab1 runs nowhere else.
    transport.connect(4, SHOP, [tool('a')]);
    assert.ok(names(hub).includes('website_tool_127_0_0_1_8080_tab4_a'), names(hub).join(' '));
    assert.ok(!names(hub).includes('website_tool_127_0_0_1_8080_tab1_a'));
    // A trip to another site and back keeps the tab's number there too.
    transport.connect(2, BLOG, [tool('b')]);
    transport.connect(2, SHOP, [tool('a')]);
    assert.ok(names(hub).includes('website_tool_127_0_0_1_8080_tab2_a'), names(hub).join(' '));
  });

  it('makes long and clashing names valid and unique', () => {
    const { hub, transport } = makeHub();
    const long = 'x'.repeat(100);
    transport.connect(1, 'http://a-very-long-subdomain.of.some.localhost:3000/', [
      tool(`${long}1`),
      tool(`${long}2`),
      tool('a.b'),
      tool('a_b'),
      tool('ünïcode'),
    ]);
    const list = names(hub);
    assert.equal(new Set(list).size, 5, list.join(' '));
    for (const name of list) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/, name);
  });

  it('is idempotent, handles empty lists and tools that arrive late, and rejects invalid tools with a reason', () => {
    const { hub, transport } = makeHub();
    const perTab: Array<[number, number]> = [];
    hub.onToolsChanged((tabId, tools) => perTab.push([tabId, tools.length]));
    transport.connect(1, SHOP, []);
    assert.equal(hub.hasRegistered(1), true);
    assert.deepEqual(names(hub), []);
    transport.update(1, [tool('late')]);
    assert.deepEqual(names(hub), ['website_tool_127_0_0_1_8080_tab1_late']);
    transport.connect(1, SHOP, [tool('late')]);
    transport.update(1, [tool('late')]);
    assert.deepEqual(perTab, [
      [1, 0],
      [1, 1],
    ]);
    transport.update(1, [tool('has space'), tool('twice'), tool('twice', { description: 'second' })]);
    assert.deepEqual(
      hub.toolsOf(1).map((entry) => [entry.name, entry.description]),
      [['twice', 'second']],
    );
    const rejected = hub.audit(['rejected']);
    assert.equal(rejected.length, 2);
    assert.ok(rejected.some((entry) => entry.tool === 'has space' && /printable/.test(entry.detail ?? '')));
  });

  it('a reload replaces the tab entry; a disconnect removes non-cached tools and answers the tab calls', async () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('slow')], () => 'hang');
    const call = hub.callTool(1, 'slow', {});
    transport.disconnect(1);
    const error = await rejection(call);
    assert.equal(error.code, ErrorCode.PageLostMidCall, 'the call reached the page: it may have run');
    assert.deepEqual(names(hub), []);
    transport.connect(1, `${SHOP}reloaded`, [tool('fresh')]);
    assert.deepEqual(names(hub), ['website_tool_127_0_0_1_8080_tab1_fresh']);
    assert.equal(hub.tabs()[0]?.url, `${SHOP}reloaded`);
  });
});

describe('hub: routing', () => {
  it('routes a tab-named call to its tab, and records it in the audit log', async () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('search')]);
    transport.connect(2, SHOP, [tool('search')]);
    const result = await hub.callHubTool('website_tool_127_0_0_1_8080_tab2_search', { q: 'x' });
    assert.deepEqual(result.structuredContent, { tabId: 2, toolName: 'search', args: { q: 'x' } });
    const [call] = hub.audit(['call']);
    assert.equal(call?.tabId, 2);
    assert.equal(call?.outcome, 'ok');
  });

  it('getBestTabForDomain: the active tab with the tool, else the most recently updated', async () => {
    let clock = 1_000;
    const { hub, transport } = makeHub({ now: () => clock });
    transport.connect(1, SHOP, [tool('search', { annotations: { readOnlyHint: true } })]);
    clock += 10;
    transport.connect(2, SHOP, [tool('search', { annotations: { readOnlyHint: true } })]);
    clock += 10;
    transport.connect(3, SHOP, [tool('other')]);
    // Tab 1 goes away mid-call: the read-only call is re-run on the best other tab.
    transport.disconnect(1);
    hub.setActiveTab(3);
    transport.connect(1, SHOP, [tool('search', { annotations: { readOnlyHint: true } })], () => 'hang');
    const rerouted = hub.callHubTool('website_tool_127_0_0_1_8080_tab1_search', {});
    await new Promise((done) => setImmediate(done));
    transport.disconnect(1);
    const result = await rerouted;
    assert.equal((result.structuredContent as { tabId: number }).tabId, 2, 'most recently updated with the tool');
    transport.connect(4, SHOP, [tool('search', { annotations: { readOnlyHint: true } })], () => 'hang');
    transport.connect(5, SHOP, [tool('search', { annotations: { readOnlyHint: true } })]);
    hub.setActiveTab(5);
    // Tab 4 got a number never given before (4); it hangs and closes: the active tab 5 wins over tab 2.
    const pinned = hub.callHubTool('website_tool_127_0_0_1_8080_tab4_search', {});
    await new Promise((done) => setImmediate(done));
    assert.deepEqual(transport.calls(4).length, 1);
    transport.disconnect(4);
    assert.equal(((await pinned).structuredContent as { tabId: number }).tabId, 5, 'the active tab wins');
  });

  it('does not repeat a non-idempotent call in another tab when its tab closed mid-call', async () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('buy')], () => 'hang');
    transport.connect(2, SHOP, [tool('buy')]);
    const call = hub.callHubTool('website_tool_127_0_0_1_8080_tab1_buy', {});
    await new Promise((done) => setImmediate(done));
    transport.disconnect(1);
    const error = await rejection(call);
    assert.equal(error.code, ErrorCode.PageLostMidCall);
    assert.match(error.message, /not repeated in another tab/);
    assert.ok(error.message.includes(mayHaveRun('website_tool_127_0_0_1_8080_tab1_buy')), error.message);
    assert.equal(transport.calls(2).length, 0);
  });

  it('gives a clear error when the only tab closes mid-call', async () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('look', { annotations: { readOnlyHint: true } })], () => 'hang');
    const call = hub.callHubTool('website_tool_127_0_0_1_8080_tab1_look', {});
    await new Promise((done) => setImmediate(done));
    transport.disconnect(1);
    const error = await rejection(call);
    assert.equal(error.code, ErrorCode.TabNotFound);
    assert.match(error.message, /No other tab of 127\.0\.0\.1:8080 offers "look"/);
  });

  it('times out a tab that does not answer, and forgets the request', async () => {
    const { hub, transport } = makeHub({ requestTimeoutMs: 30 });
    transport.connect(1, SHOP, [tool('slow')], () => 'hang');
    const error = await rejection(hub.callHubTool('website_tool_127_0_0_1_8080_tab1_slow', {}));
    assert.equal(error.code, ErrorCode.RequestTimeout);
    assert.match(error.message, /did not answer within 30 ms/);
    const [call] = hub.audit(['call']);
    assert.equal(call?.outcome, 'error');
  });

  it('unknown names and tools give errors that say how to recover', async () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('a')]);
    const unknown = await rejection(hub.callHubTool('website_tool_nowhere_tab1_a', {}));
    assert.equal(unknown.code, ErrorCode.ToolNotFound);
    assert.match(unknown.message, /List the tools again/);
    const missing = await rejection(hub.callTool(1, 'b', {}));
    assert.equal(missing.code, ErrorCode.ToolNotFound);
    const gone = await rejection(hub.callTool(9, 'a', {}));
    assert.equal(gone.code, ErrorCode.TabNotFound);
  });
});

describe('hub: cached tools', () => {
  it('keep a cached tool after its tab closed and reopen its URL when called', async () => {
    const transport = new MemoryTransport();
    const opened: string[] = [];
    const opener: TabOpener = {
      async open(url) {
        opened.push(url);
        // The new tab's content script registers a little later.
        setTimeout(() => transport.connect(7, url, [tool('notes', { annotations: { cache: true } })]), 5);
        return 7;
      },
      async close() {},
    };
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener, retryDelayMs: 5 });
    assert.equal(hub.capabilities().cacheSupported, false, 'no page caches anything yet');
    transport.connect(1, `${SHOP}notes`, [tool('notes', { annotations: { cache: true } }), tool('plain')]);
    assert.equal(hub.capabilities().cacheSupported, true);
    transport.disconnect(1);
    assert.deepEqual(names(hub), ['website_tool_127_0_0_1_8080_notes']);
    assert.match(
      hub.hubTools()[0]?.description ?? '',
      /cached, no open tab; a call opens http:\/\/127\.0\.0\.1:8080\/shop\/notes/,
    );
    const result = await hub.callHubTool('website_tool_127_0_0_1_8080_notes', { q: 'hi' });
    assert.deepEqual(opened, [`${SHOP}notes`]);
    assert.equal((result.structuredContent as { tabId: number }).tabId, 7);
    assert.deepEqual(names(hub), ['website_tool_127_0_0_1_8080_tab2_notes'], 'the live tab replaces the cached entry');
    // Issue 27 H2: the domain-only name an agent holds keeps working once the page is open again.
    const again = await hub.callHubTool('website_tool_127_0_0_1_8080_notes', { q: 'again' });
    assert.equal((again.structuredContent as { tabId: number }).tabId, 7);
    assert.deepEqual(opened, [`${SHOP}notes`], 'no second tab opened');
  });

  it('two calls at once to a cached tool with no open tab share one reopened tab (issue 27 H4)', async () => {
    const transport = new MemoryTransport();
    const opened: string[] = [];
    const opener: TabOpener = {
      async open(url) {
        opened.push(url);
        const tabId = 20 + opened.length;
        setTimeout(() => transport.connect(tabId, url, [tool('notes', { annotations: { cache: true } })]), 5);
        return tabId;
      },
      async close() {},
    };
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener, retryDelayMs: 5 });
    transport.connect(1, `${SHOP}notes`, [tool('notes', { annotations: { cache: true } })]);
    transport.disconnect(1);
    const [first, second] = await Promise.all([
      hub.callHubTool('website_tool_127_0_0_1_8080_notes', { q: 'a' }),
      hub.callHubTool('website_tool_127_0_0_1_8080_notes', { q: 'b' }),
    ]);
    assert.deepEqual(opened, [`${SHOP}notes`], 'one tab opened');
    assert.equal((first.structuredContent as { tabId: number }).tabId, 21);
    assert.equal((second.structuredContent as { tabId: number }).tabId, 21);
  });

  it('reports a reopened page that never offers the tool', async () => {
    const transport = new MemoryTransport();
    const closed: number[] = [];
    const opener: TabOpener = { open: async () => 8, close: async (tabId) => void closed.push(tabId) };
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener, openWaitMs: 20 });
    transport.connect(1, SHOP, [tool('notes', { annotations: { cache: true } })]);
    transport.disconnect(1);
    const error = await rejection(hub.callHubTool('website_tool_127_0_0_1_8080_notes', {}));
    assert.equal(error.code, ErrorCode.TabNotFound);
    assert.match(error.message, /did not offer that tool within 20 ms/);
    assert.deepEqual(closed, [8], 'the tab opened for nothing is closed again (issue 27 H4)');
    assert.match(error.message, /open it with open_tab/);
  });

  it('a cached tool whose last tab closes mid-call: its page comes back, the call is not repeated (issue 27 H7)', async () => {
    const transport = new MemoryTransport();
    const opened: string[] = [];
    const opener: TabOpener = {
      async open(url) {
        opened.push(url);
        setTimeout(() => transport.connect(30, url, [tool('send', { annotations: { cache: true } })]), 5);
        return 30;
      },
      async close() {},
    };
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener, retryDelayMs: 5 });
    transport.connect(1, `${SHOP}mail`, [tool('send', { annotations: { cache: true } })], () => 'hang');
    const call = hub.callHubTool('website_tool_127_0_0_1_8080_tab1_send', {});
    await new Promise((done) => setImmediate(done));
    transport.disconnect(1);
    const error = await rejection(call);
    assert.equal(error.code, ErrorCode.PageLostMidCall);
    assert.ok(error.message.includes(mayHaveRun('website_tool_127_0_0_1_8080_tab1_send')), error.message);
    assert.match(error.message, /opened again in tab 30, so its tools are back/);
    assert.deepEqual(opened, [`${SHOP}mail`]);
    assert.equal(transport.calls(30).length, 0, 'a call that may have run is never run again');
    assert.ok(names(hub).includes('website_tool_127_0_0_1_8080_tab2_send'), names(hub).join(' '));
  });

  it('a read-only cached tool whose last tab closes mid-call runs again in its recreated page (issue 27 H7)', async () => {
    const transport = new MemoryTransport();
    const look = () => tool('look', { annotations: { cache: true, readOnlyHint: true } });
    const opener: TabOpener = {
      async open(url) {
        setTimeout(() => transport.connect(31, url, [look()]), 5);
        return 31;
      },
      async close() {},
    };
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener, retryDelayMs: 5 });
    transport.connect(1, `${SHOP}list`, [look()], () => 'hang');
    const call = hub.callHubTool('website_tool_127_0_0_1_8080_tab1_look', {});
    await new Promise((done) => setImmediate(done));
    transport.disconnect(1);
    assert.equal(((await call).structuredContent as { tabId: number }).tabId, 31);
  });
});

describe('hub: cached tools a page withdraws', () => {
  const notes = () => tool('notes', { annotations: { cache: true } });
  const opened: string[] = [];
  const opener: TabOpener = {
    async open(url) {
      opened.push(url);
      return 99;
    },
    async close() {},
  };

  it('forgets a cached tool its tab stops offering: unlisted, and a call fails at once without opening a tab', async () => {
    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener, openWaitMs: 5_000 });
    transport.connect(1, `${SHOP}notes`, [notes(), tool('plain')]);
    transport.update(1, [tool('plain')]);
    transport.disconnect(1);
    assert.deepEqual(names(hub), []);
    const error = await rejection(hub.callHubTool('website_tool_127_0_0_1_8080_notes', {}));
    assert.equal(error.code, ErrorCode.ToolNotFound);
    assert.match(error.message, /List the tools again/);
    assert.deepEqual(opened, []);
  });

  it('a new load of the same page without the tool withdraws it; another page of the site does not', () => {
    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener });
    transport.connect(1, `${SHOP}notes?draft=1`, [notes()]);
    transport.disconnect(1);
    transport.connect(2, `${SHOP}home`, [tool('plain')]);
    assert.ok(names(hub).includes('website_tool_127_0_0_1_8080_notes'), 'another page says nothing about it');
    // Derived tools of the same page say nothing about the page's own tools either.
    transport.onmessage?.(
      3,
      { jsonrpc: '2.0', method: 'browser/registerTools', params: { tools: [tool('click')], source: 'dom' } },
      `${SHOP}notes`,
    );
    assert.ok(names(hub).includes('website_tool_127_0_0_1_8080_notes'));
    transport.connect(4, `${SHOP}notes`, [tool('plain')]);
    assert.ok(!names(hub).some((name) => name.endsWith('_notes')), names(hub).join(' '));
  });
});

describe('hub: browser capabilities (docs/requirements.md "Capability Negotiation")', () => {
  const register = (transport: MemoryTransport, tabId: number, url: string, params: Record<string, unknown>) =>
    transport.onmessage?.(
      tabId,
      { jsonrpc: '2.0', method: 'browser/registerTools', params: { tools: [tool('a')], tabUrl: url, ...params } },
      url,
    );

  it('supports caching when the hub can cache and an allowed page declares it; never elicitation', () => {
    const transport = new MemoryTransport();
    const opener: TabOpener = { open: async () => 1, close: async () => {} };
    const hub = new Hub({ transport, store: new MemoryHubStore(), opener });
    const announced: boolean[] = [];
    hub.onHubToolsChanged(() => announced.push(hub.capabilities().cacheSupported));
    register(transport, 2, 'https://pending.example/', { capabilities: { cacheSupported: true } });
    hub.setSiteDecision('shop.example', 'allow');
    register(transport, 1, 'https://shop.example/', {});
    assert.deepEqual(hub.capabilities(), { multiTabSupport: true, cacheSupported: false, elicitation: false });
    // The same tools again, now with the page's declaration: only the capabilities change.
    register(transport, 1, 'https://shop.example/', { capabilities: { cacheSupported: true, elicitation: true } });
    assert.deepEqual(hub.capabilities(), { multiTabSupport: true, cacheSupported: true, elicitation: false });
    assert.deepEqual(announced, [false, true], 'a change of capabilities alone is announced');
    const noOpener = makeHub();
    register(noOpener.transport, 1, SHOP, { capabilities: { cacheSupported: true } });
    assert.equal(noOpener.hub.capabilities().cacheSupported, false, 'a hub that cannot reopen tabs cannot cache');
  });

  it('says it got extensions it does not know instead of dropping them unseen', () => {
    const logged: Array<[string, Record<string, unknown>]> = [];
    const { transport } = makeHub({ log: (event, details) => logged.push([event, details ?? {}]) });
    register(transport, 1, SHOP, { extensions: { 'example.com/token': 'abc' } });
    assert.deepEqual(
      logged.find(([event]) => event === 'extensions.ignored'),
      ['extensions.ignored', { tabId: 1, keys: ['example.com/token'] }],
    );
  });
});

describe('hub: sites the user has not allowed', () => {
  it('holds back tools of a non-loopback site until the user allows it', async () => {
    const { hub, transport } = makeHub();
    const perTab: Array<[number, number]> = [];
    hub.onToolsChanged((tabId, tools) => perTab.push([tabId, tools.length]));
    transport.connect(1, 'https://shop.example/', [tool('buy')]);
    assert.equal(hub.siteAccess('https://shop.example/'), 'pending');
    assert.deepEqual(hub.toolsOf(1), []);
    assert.deepEqual(names(hub), []);
    const refused = await rejection(hub.callTool(1, 'buy', {}));
    assert.equal(refused.code, ErrorCode.SiteNotAllowed);
    assert.match(refused.message, /allow it in the tabmcp popup/);
    hub.setSiteDecision('shop.example', 'allow');
    assert.deepEqual(names(hub), ['website_tool_shop_example_tab1_buy']);
    hub.setSiteDecision('shop.example', 'block');
    assert.deepEqual(names(hub), []);
    assert.deepEqual(perTab, [
      [1, 0],
      [1, 1],
      [1, 0],
    ]);
    assert.equal(transport.calls().length, 0, 'nothing reached the blocked page');
  });

  it('loopback is allowed by default but can be blocked; other schemes never expose tools', () => {
    const { hub, transport } = makeHub();
    transport.connect(1, 'http://[::1]:8000/', [tool('a')]);
    transport.connect(2, 'file:///tmp/page.html', [tool('b')]);
    assert.deepEqual(names(hub), ['website_tool____1__8000_tab1_a']);
    hub.setSiteDecision('[::1]', 'block');
    assert.deepEqual(names(hub), []);
  });
});

describe('hub: worker restarts', () => {
  it('tabs that register while the restore runs (Chromium order) keep their numbers; nothing doubles', async () => {
    const first = makeHub();
    first.transport.connect(1, SHOP, [tool('search')]);
    first.transport.connect(2, SHOP, [tool('search')]);
    first.transport.connect(3, BLOG, [tool('read')]);
    first.transport.connect(4, 'https://elsewhere.example/', [tool('x')]);
    first.hub.setSiteDecision('elsewhere.example', 'allow');
    // Tab 1 closes: tab 2 stays tab 2 while it lives.
    first.transport.disconnect(1);
    const before = first.hub.hubTools();
    assert.ok(names(first.hub).includes('website_tool_127_0_0_1_8080_tab2_search'));

    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store: first.store, retryDelayMs: 5, restoreGraceMs: 50 });
    let answerTabQuery: (tabs: Array<{ tabId: number; url: string }>) => void = () => {};
    const restoring = hub.restore(new Promise((done) => (answerTabQuery = done)));
    // The content scripts are faster than the tab query and storage: they register first.
    transport.connect(3, BLOG, [tool('read')]);
    transport.connect(2, SHOP, [tool('search')]);
    transport.connect(4, 'https://elsewhere.example/', [tool('x')]);
    answerTabQuery([
      { tabId: 2, url: SHOP },
      { tabId: 3, url: BLOG },
      { tabId: 4, url: 'https://elsewhere.example/' },
    ]);
    await restoring;
    assert.equal(hub.siteAccess('https://elsewhere.example/'), 'allowed', 'site decisions survive');
    assert.deepEqual(hub.hubTools(), before, 'the same names, each tab with its own number');
    assert.ok(hub.tabs().every((tab) => tab.connected));
    // A registration after the restore (a reload) changes nothing either.
    transport.connect(2, SHOP, [tool('search')]);
    assert.deepEqual(hub.hubTools(), before);
  });

  it('never gives a number again after a restart, even one of a tab closed before it (issue 27 H1)', async () => {
    const first = makeHub();
    first.transport.connect(1, SHOP, [tool('search')]);
    first.transport.connect(2, SHOP, [tool('search')]);
    // Tab 2 closes before the worker stops: an agent may still hold `…_tab2_search`.
    first.transport.disconnect(2);
    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store: first.store, restoreGraceMs: 50 });
    await hub.restore([{ tabId: 1, url: SHOP }]);
    transport.connect(1, SHOP, [tool('search')]);
    transport.connect(5, SHOP, [tool('search')]);
    assert.deepEqual(names(hub), [
      'website_tool_127_0_0_1_8080_tab1_search',
      'website_tool_127_0_0_1_8080_tab3_search',
    ]);
  });

  it('does not hold registrations back for good when storage never answers; names wait for the counters', {
    timeout: 5_000,
  }, async () => {
    const store = new MemoryHubStore();
    store.load = () => new Promise(() => {});
    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store, restoreWaitMs: 20 });
    void hub.restore([]);
    const registered = new Promise<[number, Tool[]]>((done) => hub.onToolsChanged((...args) => done(args)));
    transport.connect(1, SHOP, [tool('search')]);
    assert.deepEqual(hub.toolsOf(1), [], 'held while the restore runs');
    const [tabId, tools] = await registered;
    assert.equal(tabId, 1);
    assert.deepEqual(
      tools.map((entry) => entry.name),
      ['search'],
    );
    assert.equal(((await hub.callTool(1, 'search', {})).structuredContent as { tabId: number }).tabId, 1);
    assert.deepEqual(names(hub), [], 'no number before the stored counters are known (issue 39 Q5)');
  });

  it("a slow restore renumbers nothing: a closed tab's name is refused, not run in another tab (issue 39 Q5)", async () => {
    const first = makeHub();
    first.transport.connect(1, SHOP, [tool('search')]);
    first.transport.connect(2, SHOP, [tool('search')]);
    // Tab 1 closes before the worker stops: an agent may still hold `…_tab1_search`.
    first.transport.disconnect(1);
    const store = first.store;
    const load = store.load.bind(store);
    let answer: () => void = () => {};
    const answered = new Promise<void>((done) => (answer = done));
    // Storage answers only after the hub stopped waiting for it (restoreWaitMs).
    store.load = async () => {
      await answered;
      return load();
    };
    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store, restoreWaitMs: 20, restoreGraceMs: 50 });
    const restoring = hub.restore([
      { tabId: 2, url: SHOP },
      { tabId: 7, url: SHOP },
    ]);
    const served = new Promise<void>((done) => hub.onToolsChanged((tabId) => tabId === 7 && done()));
    transport.connect(7, SHOP, [tool('search')]);
    transport.connect(2, SHOP, [tool('search')]);
    await served;
    assert.deepEqual(
      hub.toolsOf(7).map((entry) => entry.name),
      ['search'],
      'served by its id meanwhile',
    );
    const refused = await rejection(hub.callHubTool('website_tool_127_0_0_1_8080_tab1_search', {}));
    assert.equal(refused.code, ErrorCode.ToolNotFound);
    assert.deepEqual(transport.calls(), [], 'the stale name ran nowhere');
    answer();
    await restoring;
    // Tab 2 keeps its stored number; tab 7 gets a number never given before the restart.
    assert.deepEqual(names(hub), [
      'website_tool_127_0_0_1_8080_tab2_search',
      'website_tool_127_0_0_1_8080_tab3_search',
    ]);
    await rejection(hub.callHubTool('website_tool_127_0_0_1_8080_tab1_search', {}));
    assert.deepEqual(transport.calls(), [], 'still refused once the numbers are known');
  });

  it("never reuses the number of a live tab, nor forgets its domain's counter, past 5,000 domains (issue 39 Q6)", () => {
    const { hub, transport } = makeHub();
    transport.connect(1, SHOP, [tool('search')]);
    // 5,001 other domains come and go while tab 1 stays open.
    for (let index = 0; index < 5_001; index++) {
      transport.connect(10_000 + index, `https://site${index}.example/`, [tool('x')]);
      transport.disconnect(10_000 + index);
    }
    transport.connect(2, SHOP, [tool('search')]);
    assert.deepEqual(names(hub), [
      'website_tool_127_0_0_1_8080_tab1_search',
      'website_tool_127_0_0_1_8080_tab2_search',
    ]);
  });

  it('keeps quiet tabs the worker saw alive; prunes tabs it has not seen for an hour', async () => {
    let clock = 10 * 3_600_000;
    const first = makeHub({ now: () => clock });
    first.transport.connect(1, SHOP, [tool('search')]);
    first.transport.connect(3, BLOG, [tool('read')]);
    // Two quiet hours: no tool changes, but the worker is alive and says so now and then.
    for (let step = 0; step < 8; step++) {
      clock += 15 * 60_000;
      first.hub.keepAlive();
    }
    const live = [
      { tabId: 1, url: SHOP },
      { tabId: 3, url: BLOG },
    ];
    const restarted = new Hub({
      transport: new MemoryTransport(),
      store: first.store,
      now: () => clock,
      restoreGraceMs: 10,
    });
    await restarted.restore(live);
    assert.deepEqual(names(restarted), [
      'website_tool_127_0_0_1_8080_tab1_search',
      'website_tool_localhost_9090_tab1_read',
    ]);
    // The worker was gone for two hours (say, the browser was closed): its state is stale.
    clock += 2 * 3_600_000;
    const late = new Hub({ transport: new MemoryTransport(), store: first.store, now: () => clock });
    await late.restore(live);
    assert.deepEqual(names(late), []);
  });

  it('a call right after the restart waits for the tab to reconnect (retries), then runs', async () => {
    const first = makeHub();
    first.transport.connect(5, SHOP, [tool('search')]);
    const transport = new MemoryTransport();
    const hub = new Hub({ transport, store: first.store, retryDelayMs: 50, restoreGraceMs: 500 });
    await hub.restore([{ tabId: 5, url: SHOP }]);
    const call = hub.callHubTool('website_tool_127_0_0_1_8080_tab1_search', {});
    setTimeout(() => transport.connect(5, SHOP, [tool('search')]), 10);
    assert.equal(((await call).structuredContent as { tabId: number }).tabId, 5);
  });

  it('gives up after three retries on a tab that never reconnects', async (t) => {
    // A mocked clock: with real timers, a loaded machine could let the grace pass before the third retry.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const first = makeHub();
    first.transport.connect(5, SHOP, [tool('search')]);
    const hub = new Hub({ transport: new MemoryTransport(), store: first.store, retryDelayMs: 5, restoreGraceMs: 100 });
    await hub.restore([{ tabId: 5, url: SHOP }]);
    let settled = false;
    const failed = rejection(hub.callTool(5, 'search', {})).finally(() => {
      settled = true;
    });
    for (let waited = 0; !settled && waited < 95; waited += 5) {
      await new Promise(setImmediate);
      t.mock.timers.tick(5);
    }
    await new Promise(setImmediate);
    assert.ok(settled, 'the call gave up within the grace period');
    const error = await failed;
    assert.equal(error.code, ErrorCode.TabNotFound);
    assert.match(error.message, /after 3 retries/);
    // Its page never came back: after the grace period its tools are gone too.
    const gone = new Promise<Tool[]>((done) => hub.onHubToolsChanged(done));
    t.mock.timers.tick(100);
    assert.deepEqual(await gone, []);
    assert.equal(hub.hasRegistered(5), false);
  });

  it('ignores a corrupt snapshot', async () => {
    const store = new MemoryHubStore();
    const hub = new Hub({ transport: new MemoryTransport(), store });
    store.saved = { version: 1, tabs: 'nope' } as never;
    await hub.restore([]);
    assert.deepEqual(hub.hubTools(), []);
  });
});
