import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { serverBin, textOf, waitFor } from '../test-support/harness';
import { type HttpTabmcp, startHttpTabmcp } from '../test-support/http-tabmcp';
import { type Machine, newMachine } from '../test-support/server-harness';

/** `tabmcp --http`: MCP over Streamable HTTP on loopback, one session (focus, tools) per client. */
describe('tabmcp --http serves several clients, each with its own session', () => {
  let site: ExampleServer;
  let machine: Machine;
  let tabmcp: HttpTabmcp | undefined;
  let url: string;
  let authorization = '';
  const clients: Client[] = [];

  async function connectClient(): Promise<{ client: Client; changes: () => number }> {
    const client = new Client({ name: `http-agent-${clients.length}`, version: '1.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes += 1;
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization } } }),
    );
    clients.push(client);
    return { client, changes: () => changes };
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  const jsonHeaders = () => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization,
  });

  /** A raw 2025-11-25 session (no SDK client): its id. */
  async function rawSession(): Promise<string> {
    const response = await fetch(url, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    await response.body?.cancel();
    assert.equal(response.status, 200, 'initialize');
    return response.headers.get('mcp-session-id') ?? '';
  }

  /** POSTs a message on a raw session; the response is left for the caller to read. */
  const postOn = (session: string, message: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(url, {
      method: 'POST',
      headers: { ...jsonHeaders(), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      signal,
    });

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    authorization = `Bearer ${httpBearerToken(machine.token)}`;
    tabmcp = await startHttpTabmcp(machine);
    url = tabmcp.url;
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await tabmcp?.stop();
    await site?.close();
    machine?.close();
  });

  it('two clients connect, each opens its own tab, each sees only its own tools', async () => {
    const first = await connectClient();
    const second = await connectClient();
    for (const { client } of [first, second]) {
      await waitFor(async () => (await call(client, 'connect_browser')).isError !== true, 20_000, 'the browser');
    }
    await call(first.client, 'open_tab', { url: `${site.url}/shop/` });
    await call(second.client, 'open_tab', { url: `${site.url}/codehub/` });
    await waitFor(() => first.changes() >= 2 && second.changes() >= 2, 5_000, 'list_changed on both streams');
    const firstNames = (await first.client.listTools()).tools.map((tool) => tool.name);
    const secondNames = (await second.client.listTools()).tools.map((tool) => tool.name);
    assert.ok(firstNames.includes('add_to_cart') && !firstNames.includes('star_repo'), `${firstNames}`);
    assert.ok(secondNames.includes('star_repo') && !secondNames.includes('add_to_cart'), `${secondNames}`);
    const [cart, star] = await Promise.all([
      call(first.client, 'add_to_cart', { productId: 'p2' }),
      call(second.client, 'star_repo'),
    ]);
    assert.match(textOf(cart), /Red Mug/);
    assert.match(textOf(star), /"starred":\s*true/);
  });

  it('refuses web pages (Origin) and DNS rebinding (Host), and unknown sessions get 404', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
    };
    const evil = await fetch(url, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: initialize,
    });
    assert.equal(evil.status, 403);
    // fetch() may not set Host; a raw request can, as a rebound DNS name would make a browser do.
    const rebound = await new Promise<number>((done, fail) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { ...headers, host: `evil.example:${new URL(url).port}` },
      });
      request.on('response', (response) => {
        response.resume();
        done(response.statusCode ?? 0);
      });
      request.on('error', fail);
      request.end(initialize);
    });
    assert.equal(rebound, 403);
    const unknown = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'no-such-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(unknown.status, 404);
    const garbage = await fetch(url, { method: 'POST', headers, body: '{not json' });
    assert.equal(garbage.status, 400);
    assert.equal(((await garbage.json()) as { error: { code: number } }).error.code, -32700);
    const noSession = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'known-id', method: 'tools/list' }),
    });
    assert.equal(((await noSession.json()) as { id: unknown }).id, 'known-id', 'the error carries the request id');
  });

  it('refuses a request without the bearer token, or with a wrong one, before anything else', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const bads: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${machine.token}` },
    ];
    for (const bad of bads) {
      const response = await fetch(url, { method: 'POST', headers: { ...headers, ...bad }, body: initialize });
      assert.equal(response.status, 401, `refused: ${JSON.stringify(bad)}`);
      assert.match(((await response.json()) as { error: { message: string } }).error.message, /tabmcp pair/);
    }
  });

  it('keeps at most 32 sessions: clients that vanished without DELETE are evicted, oldest first', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
    };
    const open = async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
        }),
      });
      await response.body?.cancel();
      return response.headers.get('mcp-session-id') ?? '';
    };
    // Two real clients hold sessions already: 30 more fill the table.
    const first = await open();
    for (let i = 0; i < 29; i++) await open();
    for (const client of clients) await client.listTools();
    await open();
    const evicted = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': first },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    await evicted.body?.cancel();
    assert.equal(evicted.status, 404);
    // The real clients were used more recently than the abandoned session, so they stay.
    for (const client of clients) assert.ok((await client.listTools()).tools.length > 0);
  });

  it('`tabmcp pair` prints the bearer token that opens an HTTP session', async () => {
    const printed = execFileSync(process.execPath, [serverBin, 'pair', '--port', String(machine.port)], {
      env: { ...process.env, TABMCP_HOME: machine.home },
      encoding: 'utf8',
    });
    const header = /Authorization: (Bearer \S+)/.exec(printed)?.[1];
    assert.ok(header, printed);
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...jsonHeaders(), authorization: header },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'paired', version: '1' } },
      }),
    });
    await response.body?.cancel();
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('mcp-session-id'));
  });

  it('a tool call survives a dropped SSE stream: Last-Event-ID replays what was missed, result included', async () => {
    const session = await rawSession();
    await (await postOn(session, { method: 'notifications/initialized' })).body?.cancel();
    const tool = async (id: number, name: string, args: Record<string, unknown> = {}) => {
      const answer = await readEvents(
        await postOn(session, { id, method: 'tools/call', params: { name, arguments: args } }),
      );
      return answer.find((event) => event.message?.id === id)?.message;
    };
    await tool(2, 'connect_browser');
    const opened = await tool(3, 'open_tab', { url: `${site.url}/codehub/` });
    assert.doesNotMatch(JSON.stringify(opened), /"isError":true/);
    // run_checks answers after `ms`: the stream is dropped right after its first event.
    const drop = new AbortController();
    const long = await postOn(
      session,
      { id: 4, method: 'tools/call', params: { name: 'run_checks', arguments: { ms: 1_500 } } },
      drop.signal,
    );
    const first = await readEvents(long, 1);
    const lastEventId = first[0]?.id;
    assert.ok(lastEventId, 'the stream opens with an event id to resume from');
    assert.equal(first[0]?.message?.id, undefined, 'the result was not sent before the drop');
    drop.abort();
    // Until the server has seen the drop, the stream still counts as connected (409): retry, as a client does.
    const resumed = await waitFor(
      async () => {
        const response = await fetch(url, {
          method: 'GET',
          headers: {
            accept: 'text/event-stream',
            authorization,
            'mcp-session-id': session,
            'mcp-protocol-version': '2025-11-25',
            'last-event-id': lastEventId,
          },
        });
        if (response.status === 409) await response.body?.cancel();
        return response.status === 409 ? undefined : response;
      },
      5_000,
      'the server to see the dropped stream',
    );
    assert.equal(resumed.status, 200);
    const replayed = await readEvents(resumed, (events) => events.some((event) => event.message?.id === 4));
    const result = replayed.find((event) => event.message?.id === 4)?.message;
    assert.doesNotMatch(JSON.stringify(result), /"isError":true/);
    assert.match(JSON.stringify(result), /passed/);
  });

  it('never evicts a busy session: sessions holding a listen stream stay while new clients evict idle ones', async () => {
    const held: AbortController[] = [];
    const busy: string[] = [];
    const initialize = () =>
      fetch(url, {
        method: 'POST',
        headers: jsonHeaders(),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'busy', version: '1' } },
        }),
      });
    try {
      // A session with an open stream is busy; at most 16 may hold one (docs/security.md), the rest stay evictable.
      for (let i = 0; i < 40; i++) {
        const response = await initialize();
        await response.body?.cancel();
        assert.equal(response.status, 200, 'a new client always gets a session: idle ones make room');
        const session = response.headers.get('mcp-session-id') ?? '';
        await (await postOn(session, { method: 'notifications/initialized' })).body?.cancel();
        const stop = new AbortController();
        held.push(stop);
        const stream = await fetch(url, {
          method: 'GET',
          headers: {
            accept: 'text/event-stream',
            authorization,
            'mcp-session-id': session,
            'mcp-protocol-version': '2025-11-25',
          },
          signal: stop.signal,
        });
        if (stream.status === 200) busy.push(session);
        else assert.equal(stream.status, 429);
      }
      // The SDK clients of the earlier tests hold listen streams of their own.
      assert.ok(busy.length > 0 && busy.length <= 16, String(busy.length));
      for (const session of busy) {
        const alive = await postOn(session, { id: 9, method: 'tools/list' });
        await alive.body?.cancel();
        assert.equal(alive.status, 200, `busy session ${session} kept`);
      }
    } finally {
      for (const stop of held) stop.abort();
    }
  });
});

interface SseEvent {
  id?: string;
  message?: { id?: unknown; [key: string]: unknown };
}

/**
 * Reads SSE events (or one JSON body) from a response until `enough` says so (a count, or a test of
 * the events so far) or the stream ends, then stops reading. Every read is bounded by the test's
 * own timeout.
 */
async function readEvents(
  response: Response,
  enough: number | ((events: SseEvent[]) => boolean) = () => false,
): Promise<SseEvent[]> {
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const text = await response.text();
    return text ? [{ message: JSON.parse(text) }] : [];
  }
  const done = typeof enough === 'number' ? (events: SseEvent[]) => events.length >= enough : enough;
  const events: SseEvent[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (!done(events)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: ?(.*)$/m.exec(block)?.[1];
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.replace(/^data: ?/, ''))
          .join('\n');
        events.push({ ...(id ? { id } : {}), ...(data.trim() ? { message: JSON.parse(data) } : {}) });
        end = buffer.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return events;
}
