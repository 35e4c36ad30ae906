import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attach, connectExtension, connectMcp, startTestProxy, tokenFor } from '../../../test-support/proxy/fixtures';
import type { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

describe('forwarding', () => {
  let proxy: ProxyServer;
  const sockets: TestSocket[] = [];
  let user = 0;
  before(async () => {
    proxy = await startTestProxy({ limits: { callTimeoutMs: 300 } });
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await proxy.close();
  });

  /** One extension with `clients` MCP clients attached; status frames already consumed. */
  async function setup(clients = 1) {
    const token = await tokenFor(`forward-user-${user++}`);
    const extension = await connectExtension(proxy, token);
    sockets.push(extension.socket);
    const mcps = [];
    for (let i = 0; i < clients; i++) {
      const mcp = await connectMcp(proxy, token);
      sockets.push(mcp.socket);
      const connectionId = await attach(mcp, extension.extensionId);
      await extension.socket.nextMatching((frame) => frame.method === 'status');
      mcps.push({ ...mcp, connectionId });
    }
    return { extension, mcps };
  }

  it('two clients using the same ids on one extension each get their own answers', async () => {
    const { extension, mcps } = await setup(2);
    const [a, b] = mcps as [(typeof mcps)[0], (typeof mcps)[0]];
    a.socket.send({ jsonrpc: '2.0', id: 1, method: 'click', params: { who: 'a' } });
    b.socket.send({ jsonrpc: '2.0', id: 1, method: 'click', params: { who: 'b' } });
    a.socket.send({ jsonrpc: '2.0', id: 'x', method: 'click', params: { who: 'a' } });
    b.socket.send({ jsonrpc: '2.0', id: 'x', method: 'click', params: { who: 'b' } });
    const forwarded = [];
    for (let i = 0; i < 4; i++) forwarded.push(await extension.socket.next());
    const ids = forwarded.map((frame) => frame.id);
    assert.deepEqual(
      [...ids].sort(),
      [`${a.connectionId}:1`, `${a.connectionId}:x`, `${b.connectionId}:1`, `${b.connectionId}:x`].sort(),
    );
    // Answer in reverse order, echoing who asked.
    for (const frame of forwarded.reverse()) {
      extension.socket.send({ jsonrpc: '2.0', id: frame.id, result: frame.params });
    }
    const fromA = [await a.socket.next(), await a.socket.next()];
    const fromB = [await b.socket.next(), await b.socket.next()];
    assert.deepEqual(
      fromA.sort((p, q) => String(p.id).localeCompare(String(q.id))),
      [
        { jsonrpc: '2.0', id: 1, result: { who: 'a' } },
        { jsonrpc: '2.0', id: 'x', result: { who: 'a' } },
      ],
    );
    assert.deepEqual(
      fromB.sort((p, q) => String(p.id).localeCompare(String(q.id))),
      [
        { jsonrpc: '2.0', id: 1, result: { who: 'b' } },
        { jsonrpc: '2.0', id: 'x', result: { who: 'b' } },
      ],
    );
  });

  it('keeps id types: 7 comes back as a number, "8" as a string; a duplicate in-flight id is refused', async () => {
    const { extension, mcps } = await setup();
    const [mcp] = mcps as [(typeof mcps)[0]];
    mcp.socket.send({ jsonrpc: '2.0', id: 7, method: 'a' });
    mcp.socket.send({ jsonrpc: '2.0', id: '8', method: 'b' });
    const first = await extension.socket.next();
    const second = await extension.socket.next();
    // Same mapped text as "7" would give: the number and the string cannot both be in flight.
    const duplicate = await mcp.socket.request('7', 'c');
    assert.deepEqual(duplicate.error, {
      code: -32600,
      message: 'Invalid Request: a request with this id is still in flight',
    });
    extension.socket.send({ jsonrpc: '2.0', id: second.id, result: 'eight' });
    extension.socket.send({ jsonrpc: '2.0', id: first.id, result: null });
    assert.deepEqual(await mcp.socket.next(), { jsonrpc: '2.0', id: '8', result: 'eight' });
    assert.deepEqual(await mcp.socket.next(), { jsonrpc: '2.0', id: 7, result: null });
  });

  it("connectionId is optional, must be the client's own, and never reaches the extension", async () => {
    const { extension, mcps } = await setup();
    const [mcp] = mcps as [(typeof mcps)[0]];
    mcp.socket.send({ jsonrpc: '2.0', id: 1, method: 'getTabs', connectionId: mcp.connectionId });
    const forwarded = await extension.socket.next();
    assert.deepEqual(forwarded, { jsonrpc: '2.0', id: `${mcp.connectionId}:1`, method: 'getTabs' });
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: {} });
    await mcp.socket.next();
    const wrong = await mcp.socket.request(
      2,
      'getTabs',
      {},
      { connectionId: 'conn-00000000-0000-0000-0000-000000000000' },
    );
    assert.equal((wrong.error as { code: number }).code, -32000);
    assert.deepEqual(await extension.socket.drain(30), []);
  });

  it('notifications flow both ways: client → extension unmapped, extension → every attached client', async () => {
    const { extension, mcps } = await setup(2);
    const [a, b] = mcps as [(typeof mcps)[0], (typeof mcps)[0]];
    a.socket.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 3 },
      connectionId: a.connectionId,
    });
    assert.deepEqual(await extension.socket.next(), {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 3 },
    });
    extension.socket.send({ jsonrpc: '2.0', method: 'tabsChanged', params: { count: 2 } });
    const expected = { jsonrpc: '2.0', method: 'tabsChanged', params: { count: 2 } };
    assert.deepEqual(await a.socket.next(), expected);
    assert.deepEqual(await b.socket.next(), expected);
  });

  it('an extension may not send requests; it gets -32601', async () => {
    const { extension } = await setup();
    extension.socket.send({ jsonrpc: '2.0', id: 'ext:1', method: 'getSomething' });
    const reply = await extension.socket.next();
    assert.equal(reply.id, 'ext:1');
    assert.equal((reply.error as { code: number }).code, -32601);
  });

  it('malformed extension replies fail the call at once with -32603', async () => {
    const { extension, mcps } = await setup();
    const [mcp] = mcps as [(typeof mcps)[0]];
    mcp.socket.send({ jsonrpc: '2.0', id: 1, method: 'a' });
    mcp.socket.send({ jsonrpc: '2.0', id: 2, method: 'b' });
    const first = await extension.socket.next();
    const second = await extension.socket.next();
    extension.socket.send({ jsonrpc: '2.0', id: first.id, result: 1, error: { code: 1, message: 'both' } });
    extension.socket.send({ jsonrpc: '2.0', id: second.id, error: 'not an error object' });
    const replies = [await mcp.socket.next(), await mcp.socket.next()];
    assert.deepEqual(
      replies.map((reply) => [reply.id, (reply.error as { code: number }).code]),
      [
        [1, -32603],
        [2, -32603],
      ],
    );
  });

  it('a call the extension never answers times out; its late reply is dropped', async () => {
    const { extension, mcps } = await setup();
    const [mcp] = mcps as [(typeof mcps)[0]];
    mcp.socket.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    const forwarded = await extension.socket.next();
    const reply = await mcp.socket.next(2_000);
    assert.deepEqual(reply, {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32002, message: 'Extension did not answer within 300 ms' },
    });
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: 'late' });
    assert.deepEqual(await mcp.socket.drain(50), []);
  });

  it('disconnect fails calls in flight, drops their late replies, and allows connecting again', async () => {
    const { extension, mcps } = await setup();
    const [mcp] = mcps as [(typeof mcps)[0]];
    mcp.socket.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    const forwarded = await extension.socket.next();
    mcp.socket.send({ jsonrpc: '2.0', id: 2, method: 'disconnect' });
    assert.deepEqual(await mcp.socket.next(), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32009, message: 'Disconnected from the extension before it answered' },
    });
    assert.deepEqual(await mcp.socket.next(), { jsonrpc: '2.0', id: 2, result: { disconnected: true } });
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: 'late' });
    // Not connected any more: forwarding is "method not found" until the next connect.
    const notConnected = await mcp.socket.request(3, 'slow');
    assert.equal((notConnected.error as { code: number }).code, -32601);
    await attach(mcp, extension.extensionId);
  });
});
