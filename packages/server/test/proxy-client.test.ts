import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  ErrorCode,
  type PersonWait,
  ProtocolError,
  type TabInfo,
  WAITING_FOR_PERSON_NOTIFICATION,
} from '@tabmcp/protocol';
import type { ProxyServer } from '@tabmcp/proxy';
import { WebSocketServer } from 'ws';
import { connectExtension, startTestProxy, tokenFor } from '../../../test-support/proxy/fixtures';
import type { Json, TestSocket } from '../../../test-support/proxy/test-socket';
import { waitFor } from '../../../test-support/wait';
import type { BrowserEvent } from '../src/core/browser-connection';
import { chooseExtension, plainTextTokenWarning } from '../src/proxy-client/choose-extension';
import { withJitter } from '../src/proxy-client/jitter';
import { ProxyBrowserConnection } from '../src/proxy-client/proxy-browser-connection';
import { diffTabs } from '../src/proxy-client/tab-diff';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
const tab = (id: number, extra: Partial<TabInfo> = {}): TabInfo => ({
  id,
  title: `t${id}`,
  url: `https://a/${id}`,
  ...extra,
});

describe('diffTabs', () => {
  it('turns two getTabs answers into the link events', () => {
    const before = new Map([
      [1, tab(1, { tools: [tool('a')] })],
      [2, tab(2)],
    ]);
    const events = diffTabs(before, [tab(1, { tools: [tool('b')], title: 'new' }), tab(3, { tools: [tool('c')] })]);
    assert.deepEqual(
      events.map((event) => event.type),
      ['tabUpdated', 'toolsChanged', 'tabCreated', 'toolsChanged', 'tabClosed'],
    );
    assert.deepEqual(diffTabs(before, [...before.values()]), []);
  });
});

describe('chooseExtension', () => {
  const list = [
    { id: 'ext-1', name: 'Work', connected: true },
    { id: 'ext-2', name: 'Home', connected: true },
    { id: 'ext-3', name: 'Work', connected: true },
  ];
  it('picks by id, by name, or the first', () => {
    assert.deepEqual(chooseExtension(list, { extensionId: 'ext-2' }), { extension: list[1] });
    assert.deepEqual(chooseExtension(list, { browserName: 'Home' }), { extension: list[1] });
    assert.deepEqual(chooseExtension(list, { extensionId: 'ext-3' }), { extension: list[2] });
    assert.deepEqual(chooseExtension(list, {}), { extension: list[0] });
  });
  it('refuses a name two browsers share, naming both ids (issue 13 finding 10: one may be an impostor)', () => {
    const twice = chooseExtension(list, { browserName: 'Work' });
    assert.ok('problem' in twice, JSON.stringify(twice));
    assert.match(twice.problem, /2 browsers named "Work".*ext-1, ext-3.*--extension-id/);
  });
  it('warns when a token would go over plain ws:// to another host (issue 13 finding 15)', () => {
    assert.match(plainTextTokenWarning('ws://proxy.example.com:8787') ?? '', /not encrypted.*wss:/);
    assert.match(plainTextTokenWarning('ws://10.0.0.5:8787') ?? '', /not encrypted/);
    assert.equal(plainTextTokenWarning('wss://proxy.example.com'), undefined);
    assert.equal(plainTextTokenWarning('ws://127.0.0.1:8787'), undefined);
    assert.equal(plainTextTokenWarning('ws://localhost:8787'), undefined);
    assert.equal(plainTextTokenWarning('ws://[::1]:8787'), undefined);
  });
  it('says why when none fits', () => {
    const missing = chooseExtension(list, { browserName: 'Laptop' });
    assert.ok('problem' in missing && /"Laptop".*"Work", "Home"/.test(missing.problem));
    const none = chooseExtension([], {});
    assert.ok('problem' in none && /options/.test(none.problem));
  });
});

/**
 * A scripted extension on a real proxy: answers getTabs and callPageTool; `hold` keeps calls unanswered
 * (they are kept in `held`, so a test can wait until one has arrived).
 */
function serveFakeExtension(socket: TestSocket, state: { tabs: TabInfo[]; version: number; hold: boolean }) {
  const waiting: Json[] = [];
  const held: Json[] = [];
  void (async () => {
    for (;;) {
      let frame: Json;
      try {
        frame = await socket.next(60_000);
      } catch {
        return;
      }
      if (typeof frame.method !== 'string' || frame.id === undefined) continue;
      const params = (frame.params ?? {}) as Json;
      const id = frame.id;
      if (frame.method === 'getTabs') {
        const answer = () =>
          socket.send({
            jsonrpc: '2.0',
            id,
            result: { version: state.version, browser: { name: 'Fake', version: '1.0' }, tabs: state.tabs },
          });
        if (params.sinceVersion === state.version) waiting.push({ answer } as unknown as Json);
        else answer();
      } else if (frame.method === 'callPageTool' && state.hold) {
        held.push(frame);
      } else if (frame.method === 'callPageTool') {
        socket.send({
          jsonrpc: '2.0',
          id: frame.id,
          result: { content: [{ type: 'text', text: `ran ${params.name}` }] },
        });
      }
    }
  })();
  return {
    held,
    change(tabs: TabInfo[]) {
      state.tabs = tabs;
      state.version += 1;
      for (const entry of waiting.splice(0)) (entry as unknown as { answer: () => void }).answer();
    },
  };
}

describe('ProxyBrowserConnection against a real proxy', () => {
  let proxy: ProxyServer;
  let connection: ProxyBrowserConnection | undefined;

  before(async () => {
    proxy = await startTestProxy();
  });
  after(async () => {
    connection?.close();
    await proxy.close();
  });

  it('connects by name, relays calls and tab changes, fails calls in flight when the browser drops, and reconnects', async () => {
    const token = await tokenFor('user-conn');
    const first = await connectExtension(proxy, token, 'Fake');
    const state = { tabs: [tab(7, { tools: [tool('go')] })], version: 1, hold: false };
    const fake = serveFakeExtension(first.socket, state);
    connection = new ProxyBrowserConnection({ proxyUrl: proxy.url, token, browserName: 'Fake', maxBackoffMs: 200 });
    const events: BrowserEvent[] = [];
    const downs: string[] = [];
    let ups = 0;
    connection.on('event', (event) => events.push(event));
    connection.on('down', (reason) => downs.push(reason));
    connection.on('up', () => {
      ups += 1;
    });
    connection.start();
    assert.equal(await connection.waitUntilUp(5_000), true);
    const { tabs } = await connection.connect();
    assert.deepEqual(
      tabs.map((entry) => entry.id),
      [7],
    );
    const result = await connection.callTool(7, 'go', {}, 5_000);
    assert.deepEqual(result.content, [{ type: 'text', text: 'ran go' }]);

    fake.change([tab(7, { tools: [tool('go'), tool('stop')] })]);
    const grew = () => events.some((event) => event.type === 'toolsChanged' && event.tools.length === 2);
    await waitFor(grew, 5_000, `the grown tool list among ${JSON.stringify(events)}`);

    state.hold = true;
    const pending = connection.callTool(7, 'go', {}, 30_000);
    await waitFor(() => fake.held.length > 0, 5_000, 'the call to reach the extension');
    first.socket.terminate();
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.code, ErrorCode.BrowserNotConnected);
      assert.match(error.message, /disconnected|gone/);
      return true;
    });
    assert.equal(downs.length, 1);
    await assert.rejects(connection.callTool(7, 'go', {}, 1_000), /not connected through the proxy/);

    const second = await connectExtension(proxy, token, 'Fake');
    serveFakeExtension(second.socket, { tabs: [tab(8)], version: 1, hold: false });
    assert.equal(await connection.waitUntilUp(5_000), true);
    assert.equal(ups, 2);
    assert.deepEqual(
      (await connection.connect()).tabs.map((entry) => entry.id),
      [8],
    );
    second.socket.close();
    connection.close();
  });

  it("hands the browser's word that a call waits for the person (relayed by the proxy) to that call alone", async () => {
    const token = await tokenFor('user-waits');
    const browser = await connectExtension(proxy, token, 'Waits');
    const fake = serveFakeExtension(browser.socket, {
      tabs: [tab(3, { tools: [tool('pay')] })],
      version: 1,
      hold: true,
    });
    const waiting = new ProxyBrowserConnection({ proxyUrl: proxy.url, token, browserName: 'Waits', maxBackoffMs: 200 });
    waiting.start();
    try {
      assert.equal(await waiting.waitUntilUp(5_000), true);
      await waiting.connect();
      const heard: PersonWait[] = [];
      const paying = waiting.callTool(3, 'pay', {}, 5_000, (wait) => heard.push(wait));
      const call = await waitFor(() => fake.held[0], 5_000, 'the call to reach the browser');
      const wait = { site: 'shop.example', tool: 'pay', since: 1, until: 45_001 };
      const notify = (requestId: unknown) =>
        browser.socket.send({ jsonrpc: '2.0', method: WAITING_FOR_PERSON_NOTIFICATION, params: { requestId, wait } });
      notify(`${String(call.id)}-not-this-call`);
      notify(call.id);
      await waitFor(() => heard.length > 0, 5_000, 'the word that the call waits');
      browser.socket.send({ jsonrpc: '2.0', id: call.id, result: { content: [{ type: 'text', text: 'paid' }] } });
      assert.deepEqual((await paying).content, [{ type: 'text', text: 'paid' }]);
      assert.deepEqual(heard, [wait], 'only the notification naming this call');
    } finally {
      waiting.close();
      browser.socket.close();
    }
  });

  it('reports a refused token as the problem, without hanging', async () => {
    const failures: unknown[] = [];
    const refused = new ProxyBrowserConnection({
      proxyUrl: proxy.url,
      token: 'not-a-jwt',
      maxBackoffMs: 200,
      log: (event, fields) => event === 'proxy.failed' && failures.push(fields),
    });
    refused.start();
    try {
      await waitFor(() => failures.length > 0, 10_000, 'the connection to give up on its token');
      assert.equal(refused.isUp, false);
      assert.match(refused.problem, /Authentication failed/);
      assert.match(refused.problem, /Mint a new agent token/, 'a refused upgrade (HTTP 401) names the way out');
    } finally {
      refused.close();
    }
  });

  it('tells a refused token by its code, not its words (issue 27)', async () => {
    // A stand-in proxy that refuses every handshake, with the code or only with the words.
    const refusals = [
      { code: ErrorCode.ServerError, message: 'Nope', data: { code: ErrorCode.TokenRefused } },
      { code: ErrorCode.ServerError, message: 'Authentication failed: but no code says so' },
    ];
    const problems: string[] = [];
    for (const refusal of refusals) {
      const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
      await once(server, 'listening');
      server.on('connection', (socket) =>
        socket.on('message', (data) => {
          const { id } = JSON.parse(String(data)) as { id: number };
          socket.send(JSON.stringify({ jsonrpc: '2.0', id, error: refusal }));
        }),
      );
      const { port } = server.address() as AddressInfo;
      const failures: unknown[] = [];
      const connection = new ProxyBrowserConnection({
        proxyUrl: `ws://127.0.0.1:${port}`,
        token: 'x',
        maxBackoffMs: 200,
        log: (event, fields) => event === 'proxy.failed' && failures.push(fields),
      });
      connection.start();
      try {
        await waitFor(() => failures.length > 0, 10_000, 'the connection to give up on its token');
        assert.equal(connection.isUp, false);
        problems.push(connection.problem);
      } finally {
        connection.close();
        server.close();
      }
    }
    assert.match(problems[0] ?? '', /^Nope\. Mint a new agent token/);
    assert.doesNotMatch(problems[1] ?? '', /Mint a new agent token/);
  });
});

describe('reconnect delays (issue 27 P10)', () => {
  it('spread over the upper half of the backoff, so agents do not all come back at once', () => {
    assert.equal(
      withJitter(1_000, () => 0),
      500,
    );
    assert.equal(
      withJitter(1_000, () => 1),
      1_000,
    );
    const delays = new Set([0.1, 0.5, 0.9].map((draw) => withJitter(4_000, () => draw)));
    assert.equal(delays.size, 3);
  });
});
