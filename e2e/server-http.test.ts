import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { serverBin, textOf, waitFor } from '../test-support/harness';
import { type Machine, newMachine } from '../test-support/server-harness';

/** `tabmcp --http`: MCP over Streamable HTTP on loopback, one session (focus, tools) per client. */
describe('tabmcp --http serves several clients, each with its own session', () => {
  let site: ExampleServer;
  let machine: Machine;
  let child: ChildProcess;
  let url: string;
  let stderr = '';
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

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    authorization = `Bearer ${httpBearerToken(machine.token)}`;
    child = spawn(
      process.execPath,
      [serverBin, '--http', '0', '--launch', '--headless', '--port', String(machine.port), '--token', machine.token],
      { env: { ...process.env, TABMCP_HOME: machine.home }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    url = await waitFor(() => /"event":"http.listening","url":"([^"]+)"/.exec(stderr)?.[1], 10_000, 'the HTTP port');
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    child?.kill('SIGTERM');
    await new Promise((done) => child?.once('exit', done));
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
});
