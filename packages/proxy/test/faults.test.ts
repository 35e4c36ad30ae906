import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  attach,
  autoAnswer,
  connectExtension,
  connectMcp,
  eventually,
  startTestProxy,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

describe('faults', () => {
  let proxy: ProxyServer;
  const sockets: TestSocket[] = [];
  let user = 0;
  before(async () => {
    proxy = await startTestProxy({ limits: { maxMessageBytes: 4096, ratePerSecond: 20, rateBurst: 30 } });
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await proxy.close();
  });

  async function setup() {
    const token = await tokenFor(`fault-user-${user++}`);
    const extension = await connectExtension(proxy, token);
    const mcp = await connectMcp(proxy, token);
    sockets.push(extension.socket, mcp.socket);
    const connectionId = await attach(mcp, extension.extensionId);
    await extension.socket.nextMatching((frame) => frame.method === 'status');
    return { extension, mcp, connectionId, token };
  }

  it('an extension that drops mid-call: every call in flight gets an error at once, then `disconnected`', async () => {
    const { extension, mcp, connectionId } = await setup();
    mcp.socket.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    mcp.socket.send({ jsonrpc: '2.0', id: 'two', method: 'slower' });
    await extension.socket.next();
    await extension.socket.next();
    const started = Date.now();
    extension.socket.terminate();
    const frames = [await mcp.socket.next(), await mcp.socket.next(), await mcp.socket.next()];
    assert.ok(Date.now() - started < 1_000, 'answered at once, not after a timeout');
    assert.deepEqual(frames, [
      { jsonrpc: '2.0', id: 1, error: { code: -32009, message: 'Extension disconnected: Extension closed' } },
      { jsonrpc: '2.0', id: 'two', error: { code: -32009, message: 'Extension disconnected: Extension closed' } },
      { jsonrpc: '2.0', method: 'disconnected', params: { connection_id: connectionId, reason: 'Extension closed' } },
    ]);
  });

  it('an MCP client that drops: its mapping goes, late replies are dropped, the extension serves others', async () => {
    const { extension, mcp, token } = await setup();
    mcp.socket.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    const forwarded = await extension.socket.next();
    mcp.socket.terminate();
    const status = await extension.socket.nextMatching((frame) => frame.method === 'status');
    assert.equal((status.params as { peer_count: number }).peer_count, 0);
    extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: 'late' });

    const other = await connectMcp(proxy, token);
    sockets.push(other.socket);
    await attach(other, extension.extensionId);
    autoAnswer(extension);
    const reply = await other.socket.request(1, 'fast', { n: 1 });
    assert.deepEqual(reply.result, { echo: 'fast', params: { n: 1 } });
    assert.equal(proxy.stats().inFlight, 0);
  });

  it('garbage from a client is answered, never crashes, and the server keeps serving', async () => {
    const { mcp, extension } = await setup();
    autoAnswer(extension);
    const garbage: [string, number][] = [
      ['not json', -32700],
      ['[1,2,3]', -32600],
      ['{"jsonrpc":"2.0"}', -32600],
      ['{"jsonrpc":"1.0","id":1,"method":"x"}', -32600],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"x"}', -32600],
      ['{"jsonrpc":"2.0","id":1.5,"method":"x"}', -32600],
      ['null', -32600],
      ['"\u0000"', -32700],
      ['{"jsonrpc":"2.0","id":1,"method":""}', -32600],
    ];
    for (const [frame, code] of garbage) {
      mcp.socket.send(frame);
      const reply = await mcp.socket.next();
      assert.equal((reply.error as { code: number }).code, code, frame);
    }
    mcp.socket.ws.send(Buffer.from([0xff, 0x00, 0x12]), { binary: true });
    assert.equal(((await mcp.socket.next()).error as { code: number }).code, -32700);
    const ok = await mcp.socket.request(99, 'still-works');
    assert.deepEqual(ok.result, { echo: 'still-works', params: null });
  });

  it('garbage from an authenticated extension is answered with an error and changes nothing', async () => {
    const { mcp, extension } = await setup();
    extension.socket.send('{{{');
    assert.equal(((await extension.socket.next()).error as { code: number }).code, -32700);
    extension.socket.send({ jsonrpc: '2.0', id: 'conn-nope:1', result: {} });
    extension.socket.send({ jsonrpc: '2.0', id: 12345, result: {} });
    assert.deepEqual(await extension.socket.drain(30), []);
    autoAnswer(extension);
    assert.deepEqual((await mcp.socket.request(1, 'x')).result, { echo: 'x', params: null });
  });

  it('an oversize frame closes that socket with 1009; everyone else is unaffected', async () => {
    const { mcp, extension } = await setup();
    autoAnswer(extension);
    const victim = await connectMcp(proxy, await tokenFor('oversize'));
    sockets.push(victim.socket);
    victim.socket.send({ jsonrpc: '2.0', id: 1, method: 'x', params: { blob: 'x'.repeat(10_000) } });
    assert.equal((await victim.socket.closed).code, 1009);
    const bigExtension = await connectExtension(proxy, await tokenFor('oversize-ext'));
    sockets.push(bigExtension.socket);
    bigExtension.socket.send({ jsonrpc: '2.0', method: 'n', params: 'y'.repeat(10_000) });
    assert.equal((await bigExtension.socket.closed).code, 1009);
    assert.deepEqual((await mcp.socket.request(2, 'x')).result, { echo: 'x', params: null });
  });

  it('the rate limit answers -32000 "Rate limit exceeded" and keeps the socket; it refills', async () => {
    const { mcp, extension } = await setup();
    autoAnswer(extension);
    for (let i = 0; i < 60; i++) mcp.socket.send({ jsonrpc: '2.0', id: i, method: 'burst' });
    const replies = [];
    for (let i = 0; i < 60; i++) replies.push(await mcp.socket.next());
    const limited = replies.filter(
      (reply) => (reply.error as { message?: string } | undefined)?.message === 'Rate limit exceeded',
    );
    const served = replies.filter((reply) => reply.result !== undefined);
    assert.ok(limited.length >= 20, `limited ${limited.length}`);
    // Burst 30, less the handshake and the connect, plus a little refill.
    assert.ok(served.length >= 27 && served.length <= 34, `served ${served.length}`);
    assert.equal((limited[0]?.error as { code?: number } | undefined)?.code, -32000);
    // The bucket refills with time: asked again until it serves, within a bound.
    let attempt = 0;
    const again = await eventually(async () => {
      const reply = await mcp.socket.request(`after-${attempt++}`, 'again');
      return reply.result === undefined ? undefined : reply;
    }, 5_000);
    assert.deepEqual(again.result, { echo: 'again', params: null });
  });

  it('GET /health reports counts; unknown paths get 404, at HTTP and at upgrade', async () => {
    const response = await fetch(`${proxy.url.replace('ws', 'http')}/health`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { status: string; instance_id: string; counts: Record<string, number> };
    assert.equal(body.status, 'ok');
    assert.equal(body.instance_id, proxy.instanceId);
    assert.equal(typeof body.counts.extensions, 'number');
    assert.equal(typeof body.counts.mcpClients, 'number');
    assert.equal((await fetch(`${proxy.url.replace('ws', 'http')}/nope`)).status, 404);
    await assert.rejects(TestSocket.open(`${proxy.url}/elsewhere`), /HTTP 404/);
  });
});

describe('lifecycle', () => {
  it('drops a peer that stops answering pings', async () => {
    const proxy = await startTestProxy({ limits: { pingIntervalMs: 100 } });
    try {
      // A raw TCP client that completes the upgrade and then never reads or answers a ping.
      const socket = net.connect(proxy.port, '127.0.0.1');
      socket.write(
        'GET /extension HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      socket.resume(); // read (and ignore) everything, pings included, but never answer
      const started = Date.now();
      await ended;
      assert.ok(Date.now() - started < 2_000);
    } finally {
      await proxy.close();
    }
  });

  it('close() is idempotent, tells browsers 1001 and clients 1012 (restart), refuses new sockets, and limits connections', async () => {
    const proxy = await startTestProxy({ limits: { maxConnections: 2 } });
    const token = await tokenFor('closing');
    const extension = await connectExtension(proxy, token);
    const mcp = await connectMcp(proxy, token);
    await assert.rejects(TestSocket.open(`${proxy.url}/mcp`), /HTTP 503/);
    await Promise.all([proxy.close(), proxy.close()]);
    assert.equal((await extension.socket.closed).code, 1001);
    assert.equal((await mcp.socket.closed).code, 1012);
    await proxy.close();
  });
});
