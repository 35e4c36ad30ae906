// Issue 27 P9: when the proxy ends a connection it says why and what to do: an instance that stops is a restart
// the browser and tabmcp recover from (not "Extension closed"), and a client that does not read is closed with
// a code and a reason naming the backpressure (not a bare 1006).
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { attach, connectExtension, connectMcp, startTestProxy, tokenFor } from '../../../test-support/proxy/fixtures';
import type { TestSocket } from '../../../test-support/proxy/test-socket';
import { MemoryClusterHub, type ProxyServer } from '../src/index';

const proxies: ProxyServer[] = [];
const sockets: TestSocket[] = [];
after(async () => {
  for (const socket of sockets) socket.terminate();
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

async function proxyWith(overrides: Parameters<typeof startTestProxy>[0] = {}): Promise<ProxyServer> {
  const proxy = await startTestProxy(overrides);
  proxies.push(proxy);
  return proxy;
}

describe('close reasons (issue 27 P9)', () => {
  it('an instance that stops tells its browser clients and its own clients it is a restart', async () => {
    const hub = new MemoryClusterHub();
    const front = await proxyWith({ cluster: hub.node(), instanceId: 'front' });
    const stopping = await startTestProxy({ cluster: hub.node(), instanceId: 'stopping' });
    const token = await tokenFor('restart-user');
    const extension = await connectExtension(stopping, token);
    const remote = await connectMcp(front, token);
    const local = await connectMcp(stopping, token);
    sockets.push(extension.socket, remote.socket, local.socket);
    await attach(remote, extension.extensionId);
    await stopping.close();
    const ended = await remote.socket.nextMatching((frame) => frame.method === 'disconnected');
    const reason = (ended.params as { reason: string }).reason;
    assert.doesNotMatch(reason, /Extension closed/);
    assert.match(reason, /restarting or stopping; the browser reconnects by itself/);
    const closed = await local.socket.closed;
    assert.equal(closed.code, 1012, 'Service Restart');
    assert.match(closed.reason, /connect again \(tabmcp does so by itself\)/);
  });

  it('a client that does not read is closed with 1013 and a reason naming the backpressure', async () => {
    const proxy = await proxyWith({ limits: { maxBufferedBytes: 64 * 1024 } });
    const token = await tokenFor('slow-reader');
    const extension = await connectExtension(proxy, token);
    const reader = await connectMcp(proxy, token);
    sockets.push(extension.socket, reader.socket);
    await attach(reader, extension.extensionId);
    // The reader stops reading; the browser keeps talking to it until the kernel's buffers are full.
    const transport = (reader.socket.ws as unknown as { _socket: Socket })._socket;
    transport.pause();
    const pad = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 600; i++) {
      extension.socket.send({ jsonrpc: '2.0', method: 'notifications/message', params: { i, pad } });
      if (i % 50 === 49) await new Promise((done) => setImmediate(done));
    }
    await new Promise<void>((done) => extension.socket.ws.send('{"jsonrpc":"2.0","method":"flush"}', () => done()));
    transport.resume();
    const closed = await reader.socket.closed;
    assert.equal(closed.code, 1013);
    assert.match(closed.reason, /backpressure/);
  });
});
