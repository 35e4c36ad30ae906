// Issue 13 finding 14: when Redis dies, a call waiting on another instance fails at once, not after 120 s.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import {
  attach,
  connectExtension,
  connectMcp,
  eventually,
  startTestProxy,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { type RedisProcess, startRedis } from '../../../test-support/proxy/processes';
import type { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

const HEARTBEAT_MS = 200;

describe('cluster link lost', () => {
  let redis: RedisProcess;
  let b: ProxyServer;
  let c: ProxyServer;
  const sockets: TestSocket[] = [];

  before(async () => {
    redis = await startRedis();
    // The default call time-out (120 s) stays: the error must come from the lost link, not from a timer.
    b = await startTestProxy({ redisUrl: redis.url, instanceId: 'b', heartbeatMs: HEARTBEAT_MS });
    c = await startTestProxy({ redisUrl: redis.url, instanceId: 'c', heartbeatMs: HEARTBEAT_MS });
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await Promise.all([b?.close(), c?.close()]);
    await redis?.stop();
  });

  it('a call in flight to an extension on another instance gets "Cluster link lost" within seconds', async () => {
    const token = await tokenFor('link-lost');
    const extension = await connectExtension(c, token, 'Chrome on C'); // never answers
    const client = await connectMcp(b, token);
    sockets.push(extension.socket, client.socket);
    await eventually(async () => {
      const reply = await client.socket.request(1, 'list_extensions', {});
      return (reply.result as { extensions: unknown[] }).extensions.length > 0 ? true : undefined;
    });
    await attach(client, extension.extensionId);
    client.socket.send({ jsonrpc: '2.0', id: 2, method: 'getTabs', params: {} });
    await extension.socket.nextMatching((frame) => frame.method === 'getTabs');

    await redis.stop();
    const reply = await client.socket.nextMatching((frame) => frame.id === 2, 10_000);
    assert.equal((reply.error as { code: number }).code, -32011);
    assert.match((reply.error as { message: string }).message, /^Cluster link lost/);
    // The connection is kept: the link may come back.
    await redis.start();
  });

  it('a pub/sub outage far shorter than the sweep still answers the call waiting on another instance (issue 27 P1)', async () => {
    const token = await tokenFor('link-blip');
    const extension = await connectExtension(c, token, 'Chrome on C, blip'); // never answers
    const client = await connectMcp(b, token);
    sockets.push(extension.socket, client.socket);
    await eventually(async () => {
      const reply = await client.socket.request(1, 'list_extensions', {});
      const found = (reply.result as { extensions: Array<{ id: string }> }).extensions;
      return found.some((entry) => entry.id === extension.extensionId) ? true : undefined;
    });
    // Redis was restarted by the test before: this instance's publishing connection may still be
    // reconnecting, and a connect made meanwhile is refused as "unreachable", as it should be.
    await eventually(() => attach(client, extension.extensionId));
    client.socket.send({ jsonrpc: '2.0', id: 2, method: 'getTabs', params: {} });
    await extension.socket.nextMatching((frame) => frame.method === 'getTabs');
    // Every subscriber connection is cut; ioredis is back within tens of milliseconds, long before
    // the 1 s sweep would look, and a reply published meanwhile would be gone.
    const admin = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await admin.connect();
    try {
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    } finally {
      admin.disconnect();
    }
    const reply = await client.socket.nextMatching((frame) => frame.id === 2, 10_000);
    assert.equal((reply.error as { code: number }).code, -32011);
    assert.match((reply.error as { message: string }).message, /may have run/);
  });
});
