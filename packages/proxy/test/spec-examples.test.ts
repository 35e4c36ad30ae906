// Replays every example exchange of docs/requirements.md#remote-proxy on real sockets, field by field.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  attach,
  browserToken,
  CONN_ID,
  connectExtension,
  connectMcp,
  EXT_ID,
  MCP_ID,
  startTestProxy,
  TIMESTAMP,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

const USER = '83898119-db4f-4848-9d27-ea328b73a4df';

describe('docs/requirements.md#remote-proxy examples', () => {
  let proxy: ProxyServer;
  let token: string;
  const sockets: TestSocket[] = [];
  const track = <T extends { socket: TestSocket } | TestSocket>(value: T): T => {
    sockets.push(value instanceof TestSocket ? value : value.socket);
    return value;
  };

  before(async () => {
    proxy = await startTestProxy();
    token = await tokenFor(USER);
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await proxy.close();
  });

  it('1.1-1.4 extension connects, waits, is asked to authenticate, then gets `authenticated`', async () => {
    const socket = track(await TestSocket.open(`${proxy.url}/extension`));
    // 1.2: the proxy speaks first, with exactly this request.
    assert.deepEqual(await socket.next(), { jsonrpc: '2.0', id: 'proxy:1', method: 'authenticate', params: {} });
    // 1.3
    socket.send({
      jsonrpc: '2.0',
      id: 'proxy:1',
      result: { name: 'Chrome 141', accessToken: await browserToken(token) },
    });
    // 1.4: a notification (no id) with the user and the extension id the proxy assigned.
    const authenticated = await socket.next();
    assert.deepEqual(Object.keys(authenticated).sort(), ['jsonrpc', 'method', 'params']);
    assert.equal(authenticated.jsonrpc, '2.0');
    assert.equal(authenticated.method, 'authenticated');
    const params = authenticated.params as Record<string, string>;
    assert.deepEqual(Object.keys(params).sort(), ['extension_id', 'user_id']);
    assert.equal(params.user_id, USER);
    assert.match(params.extension_id ?? '', EXT_ID);
  });

  it('"For Browser Extensions" example: `access_token` and a reply without the connection being told twice', async () => {
    const socket = track(await TestSocket.open(`${proxy.url}/extension`));
    const request = await socket.next();
    socket.send({
      jsonrpc: '2.0',
      id: request.id,
      result: { name: 'Chrome 141', access_token: await browserToken(token) },
    });
    const authenticated = await socket.next();
    assert.equal(authenticated.method, 'authenticated');
  });

  it('2.1-2.3 MCP client handshake', async () => {
    const socket = track(await TestSocket.open(`${proxy.url}/mcp`));
    socket.send({ jsonrpc: '2.0', id: 1, method: 'mcp_handshake', params: { accessToken: token } });
    const reply = await socket.next();
    assert.deepEqual(Object.keys(reply).sort(), ['id', 'jsonrpc', 'result']);
    assert.equal(reply.jsonrpc, '2.0');
    assert.equal(reply.id, 1);
    const result = reply.result as Record<string, unknown>;
    assert.deepEqual(Object.keys(result).sort(), ['authenticated', 'mcp_client_id', 'user_id']);
    assert.equal(result.authenticated, true);
    assert.equal(result.user_id, USER);
    assert.match(String(result.mcp_client_id), MCP_ID);
  });

  it('control method 2 error: mcp_handshake with a bad token gets -32000 and the socket is closed', async () => {
    const socket = track(await TestSocket.open(`${proxy.url}/mcp`));
    socket.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'mcp_handshake',
      params: { accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.x' },
    });
    const reply = await socket.next();
    assert.equal(reply.jsonrpc, '2.0');
    assert.equal(reply.id, 1);
    const error = reply.error as { code: number; message: string };
    assert.equal(error.code, -32000);
    assert.match(error.message, /^Authentication failed: /);
    const closed = await socket.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /^Authentication failed/);
  });

  it("3.1-3.2 list_extensions returns the user's extensions; control method 3 with two of them", async () => {
    const user = 'user-list-example';
    const userToken = await tokenFor(user);
    const mcp = track(await connectMcp(proxy, userToken));
    // "Empty array if no extensions connected"
    assert.deepEqual(await mcp.socket.request(1, 'list_extensions', {}), {
      jsonrpc: '2.0',
      id: 1,
      result: { extensions: [] },
    });
    const first = track(await connectExtension(proxy, userToken, 'Chrome 141'));
    assert.deepEqual(await mcp.socket.request(1, 'list_extensions', {}), {
      jsonrpc: '2.0',
      id: 1,
      result: { extensions: [{ id: first.extensionId, name: 'Chrome 141', connected: true }] },
    });
    const second = track(await connectExtension(proxy, userToken, 'Chrome 140'));
    assert.deepEqual(await mcp.socket.request(2, 'list_extensions', {}), {
      jsonrpc: '2.0',
      id: 2,
      result: {
        extensions: [
          { id: first.extensionId, name: 'Chrome 141', connected: true },
          { id: second.extensionId, name: 'Chrome 140', connected: true },
        ],
      },
    });
  });

  it('4.1-4.2 connect, then `status` on both sides; control method 4 errors', async () => {
    const user = 'user-connect-example';
    const userToken = await tokenFor(user);
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));

    const reply = await mcp.socket.request(2, 'connect', { extension_id: extension.extensionId });
    assert.equal(reply.jsonrpc, '2.0');
    assert.equal(reply.id, 2);
    const result = reply.result as Record<string, string>;
    assert.deepEqual(Object.keys(result).sort(), ['connection_id', 'extension_id', 'extension_name']);
    assert.match(result.connection_id ?? '', CONN_ID);
    assert.equal(result.extension_id, extension.extensionId);
    assert.equal(result.extension_name, 'Chrome 141');

    // "Status Updates": the MCP client and the extension both learn the peer count.
    for (const status of [await mcp.socket.next(), await extension.socket.next()]) {
      assert.deepEqual(Object.keys(status).sort(), ['jsonrpc', 'method', 'params']);
      assert.equal(status.method, 'status');
      const params = status.params as Record<string, unknown>;
      assert.deepEqual(Object.keys(params).sort(), ['connected', 'peer_count', 'timestamp']);
      assert.equal(params.connected, true);
      assert.equal(params.peer_count, 1);
      assert.match(String(params.timestamp), TIMESTAMP);
    }

    // Error - Already connected
    assert.deepEqual(await mcp.socket.request(3, 'connect', { extension_id: extension.extensionId }), {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32001, message: 'MCP client already connected to an extension' },
    });
    // Error - Extension not found
    const other = track(await connectMcp(proxy, userToken));
    assert.deepEqual(
      await other.socket.request(3, 'connect', { extension_id: 'ext-d1cdb70b-b20a-46ed-8fa7-7597a0f2837a' }),
      {
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32000, message: 'Extension not found or not accessible' },
      },
    );
  });

  it('5.1-5.4 createTab with connectionId: mapped towards the extension, unmapped back, connectionId stripped', async () => {
    const userToken = await tokenFor('user-forward-example');
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));
    const connectionId = await attach(mcp, extension.extensionId);
    await extension.socket.nextMatching((frame) => frame.method === 'status');

    // 5.1
    mcp.socket.send({
      jsonrpc: '2.0',
      id: 100,
      method: 'createTab',
      params: { url: 'https://example.com', stealth: true },
      connectionId,
    });
    // 5.2 (with the id mapped as the "ID Mapping by Proxy" section requires; 5.2's own snippet shows it unmapped)
    const forwarded = await extension.socket.next();
    assert.deepEqual(forwarded, {
      jsonrpc: '2.0',
      id: `${connectionId}:100`,
      method: 'createTab',
      params: { url: 'https://example.com', stealth: true },
    });
    // 5.3
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: { tabId: 42, url: 'https://example.com' } });
    // 5.4
    assert.deepEqual(await mcp.socket.next(), {
      jsonrpc: '2.0',
      id: 100,
      result: { tabId: 42, url: 'https://example.com' },
    });
  });

  it('"Forwarded Methods": without connectionId, id 4 becomes "conn-…:4" and comes back as 4', async () => {
    const userToken = await tokenFor('user-forward-no-conn');
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));
    const connectionId = await attach(mcp, extension.extensionId);
    await extension.socket.nextMatching((frame) => frame.method === 'status');

    mcp.socket.send({ jsonrpc: '2.0', id: 4, method: 'createTab', params: { url: 'https://example.com' } });
    const forwarded = await extension.socket.next();
    assert.equal(forwarded.id, `${connectionId}:4`);
    assert.equal('connectionId' in forwarded, false);
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: {} });
    assert.deepEqual(await mcp.socket.next(), { jsonrpc: '2.0', id: 4, result: {} });

    // "MCP Client IDs": UUID strings work the same and keep their type.
    const uuid = '550e8400-e29b-41d4-a716-446655440000';
    mcp.socket.send({ jsonrpc: '2.0', id: uuid, method: 'getTabs' });
    const forwardedUuid = await extension.socket.next();
    assert.deepEqual(forwardedUuid, { jsonrpc: '2.0', id: `${connectionId}:${uuid}`, method: 'getTabs' });
    extension.socket.send({ jsonrpc: '2.0', id: forwardedUuid.id, result: { tabs: [] } });
    assert.deepEqual(await mcp.socket.next(), { jsonrpc: '2.0', id: uuid, result: { tabs: [] } });
  });

  it('"Error Handling": an extension error reaches the client unchanged', async () => {
    const userToken = await tokenFor('user-error-example');
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));
    await attach(mcp, extension.extensionId);
    await extension.socket.nextMatching((frame) => frame.method === 'status');

    mcp.socket.send({ jsonrpc: '2.0', id: 100, method: 'createTab', params: { url: 'https://example.com' } });
    const forwarded = await extension.socket.next();
    extension.socket.send({
      jsonrpc: '2.0',
      id: forwarded.id,
      error: { code: -32000, message: 'Tab creation failed: Permission denied' },
    });
    assert.deepEqual(await mcp.socket.next(), {
      jsonrpc: '2.0',
      id: 100,
      error: { code: -32000, message: 'Tab creation failed: Permission denied' },
    });
  });

  it('"CRITICAL Rules" 3: a bare `{"id": …}` reply never reaches the client as such', async () => {
    const userToken = await tokenFor('user-bare-reply');
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));
    await attach(mcp, extension.extensionId);
    await extension.socket.nextMatching((frame) => frame.method === 'status');

    mcp.socket.send({ jsonrpc: '2.0', id: 100, method: 'createTab', params: {} });
    const forwarded = await extension.socket.next();
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id });
    const reply = await mcp.socket.next();
    assert.equal(reply.id, 100);
    assert.equal('result' in reply, false);
    assert.deepEqual(reply.error, {
      code: -32603,
      message: 'Extension sent a response with neither result nor error',
    });
  });

  it('control method 5: disconnect answers {disconnected:true}, is safe to repeat, keeps the socket open', async () => {
    const userToken = await tokenFor('user-disconnect-example');
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));
    await attach(mcp, extension.extensionId);
    await extension.socket.nextMatching((frame) => frame.method === 'status');

    assert.deepEqual(await mcp.socket.request(4, 'disconnect', {}), {
      jsonrpc: '2.0',
      id: 4,
      result: { disconnected: true },
    });
    const status = await extension.socket.next();
    assert.equal(status.method, 'status');
    assert.deepEqual(
      { ...(status.params as object), timestamp: 'x' },
      { connected: false, peer_count: 0, timestamp: 'x' },
    );
    assert.deepEqual(await mcp.socket.request(5, 'disconnect', {}), {
      jsonrpc: '2.0',
      id: 5,
      result: { disconnected: true },
    });
    // "Does NOT close MCP WebSocket (can connect to another extension)"
    await attach(mcp, extension.extensionId);
  });

  it('"Disconnection Notice": the extension goes away and the client is told which connection ended', async () => {
    const userToken = await tokenFor('user-disconnected-example');
    const extension = track(await connectExtension(proxy, userToken));
    const mcp = track(await connectMcp(proxy, userToken));
    const connectionId = await attach(mcp, extension.extensionId);

    extension.socket.close();
    assert.deepEqual(await mcp.socket.next(), {
      jsonrpc: '2.0',
      method: 'disconnected',
      params: { connection_id: connectionId, reason: 'Extension closed' },
    });
    // "If MCP disconnects: ... can connect to another extension" (and list no longer shows the old one).
    assert.deepEqual(await mcp.socket.request(6, 'list_extensions', {}), {
      jsonrpc: '2.0',
      id: 6,
      result: { extensions: [] },
    });
  });

  it('"Connection Lifecycle" of an MCP client, steps 1-11 in one go', async () => {
    const userToken = await tokenFor('user-lifecycle');
    const extension = track(await connectExtension(proxy, userToken));
    const socket = track(await TestSocket.open(`${proxy.url}/mcp`));
    assert.equal((await socket.request(1, 'mcp_handshake', { accessToken: userToken })).result !== undefined, true);
    const list = (await socket.request(2, 'list_extensions', {})).result as { extensions: { id: string }[] };
    const extensionId = list.extensions[0]?.id ?? '';
    assert.equal(extensionId, extension.extensionId);
    const connect = (await socket.request(3, 'connect', { extension_id: extensionId })).result as {
      connection_id: string;
    };
    socket.send({ jsonrpc: '2.0', id: 4, method: 'createTab', params: { url: 'https://example.com' } });
    const forwarded = await extension.socket.nextMatching((frame) => frame.method === 'createTab');
    assert.equal(forwarded.id, `${connect.connection_id}:4`);
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: { tabId: 1 } });
    assert.deepEqual(await socket.nextMatching((frame) => frame.id === 4), {
      jsonrpc: '2.0',
      id: 4,
      result: { tabId: 1 },
    });
  });

  it('"Error Codes": -32700, -32600, -32601, -32602 from the proxy itself', async () => {
    const mcp = track(await connectMcp(proxy, token));
    mcp.socket.send('{"jsonrpc":"2.0","id":1,"method":');
    assert.deepEqual(await mcp.socket.next(), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'message is not valid JSON' },
    });
    mcp.socket.send({ id: 7, method: 'list_extensions' });
    const invalid = await mcp.socket.next();
    assert.equal(invalid.id, 7);
    assert.equal((invalid.error as { code: number }).code, -32600);
    const unknown = await mcp.socket.request(8, 'navigate', { url: 'https://example.com' });
    assert.equal((unknown.error as { code: number }).code, -32601);
    const badParams = await mcp.socket.request(9, 'connect', {});
    assert.equal((badParams.error as { code: number }).code, -32602);
    const badType = await mcp.socket.request(10, 'connect', { extension_id: 42 });
    assert.equal((badType.error as { code: number }).code, -32602);
  });
});
