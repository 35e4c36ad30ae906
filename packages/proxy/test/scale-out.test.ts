// Several proxy instances on one real redis-server: presence, routing, instance death, Redis restart.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { clusterLink, useCluster } from '../../../test-support/proxy/cluster';
import {
  attach,
  autoAnswer,
  connectExtension,
  connectMcp,
  eventually,
  startTestProxy,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import type { ProxyProcess, RedisProcess } from '../../../test-support/proxy/processes';
import type { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

const HEARTBEAT_MS = 200;

describe('scale-out over Redis', () => {
  // A in its own process, so it can die for real.
  const cluster = useCluster({ heartbeatMs: HEARTBEAT_MS, spawned: ['a'], inProcess: ['b'] });
  const { track } = cluster;
  let redis: RedisProcess;
  let a: ProxyProcess;
  let b: ProxyServer;
  before(() => {
    redis = cluster.redis;
    a = cluster.process('a');
    b = cluster.instance('b');
  });

  const listOn = async (socket: TestSocket, id: number) =>
    ((await socket.request(id, 'list_extensions')).result as { extensions: { id: string; name: string }[] }).extensions;

  it('a client on B lists, connects to and calls an extension on A; ids do not collide; users stay apart', async () => {
    const token = await tokenFor('scale-user');
    const extension = track(await connectExtension(a, token, 'Chrome on A'));
    autoAnswer(extension);
    const onB = track(await connectMcp(b, token));
    const onA = track(await connectMcp(a, token));

    const listed = await eventually(async () => {
      const extensions = await listOn(onB.socket, 1);
      return extensions.length > 0 ? extensions : undefined;
    });
    assert.deepEqual(listed, [{ id: extension.extensionId, name: 'Chrome on A', connected: true }]);

    const connectionOnB = await attach(onB, extension.extensionId);
    const connectionOnA = await attach(onA, extension.extensionId);
    assert.notEqual(connectionOnA, connectionOnB);
    const [fromB, fromA] = await Promise.all([
      onB.socket.request(7, 'createTab', { url: 'https://example.com', via: 'b' }),
      onA.socket.request(7, 'createTab', { url: 'https://example.com', via: 'a' }),
    ]);
    assert.deepEqual(fromB, {
      jsonrpc: '2.0',
      id: 7,
      result: { echo: 'createTab', params: { url: 'https://example.com', via: 'b' } },
    });
    assert.deepEqual((fromA.result as { params: unknown }).params, { url: 'https://example.com', via: 'a' });

    extension.socket.send({ jsonrpc: '2.0', method: 'tabsChanged', params: { n: 3 } });
    assert.deepEqual(await onB.socket.nextMatching((frame) => frame.method === 'tabsChanged'), {
      jsonrpc: '2.0',
      method: 'tabsChanged',
      params: { n: 3 },
    });

    const stranger = track(await connectMcp(b, await tokenFor('scale-stranger')));
    assert.deepEqual(await listOn(stranger.socket, 1), []);
    const refused = await stranger.socket.request(2, 'connect', { extension_id: extension.extensionId });
    assert.deepEqual(refused.error, { code: -32000, message: 'Extension not found or not accessible' });

    extension.socket.close();
    assert.deepEqual(await onB.socket.nextMatching((frame) => frame.method === 'disconnected'), {
      jsonrpc: '2.0',
      method: 'disconnected',
      params: { connection_id: connectionOnB, reason: 'Extension closed' },
    });
  });

  it("garbage published on an instance's bus channel is dropped; the instance keeps serving", async () => {
    const publisher = new Redis(redis.url);
    try {
      const channel = `tabmcp:proxy:bus:${b.nodeId}`;
      for (const junk of [
        'not json',
        '{}',
        '{"t":"reply","from":"x"}',
        JSON.stringify({ t: 'ended', from: 'x', connectionIds: 5 }),
      ]) {
        assert.equal(await publisher.publish(channel, junk), 1);
      }
      const client = track(await connectMcp(b, await tokenFor('scale-junk')));
      assert.deepEqual(await listOn(client.socket, 1), []);
    } finally {
      publisher.disconnect();
    }
  });

  it('instance A dies: clients on B get errors for calls in flight and `disconnected`', async () => {
    const token = await tokenFor('scale-crash');
    const extension = track(await connectExtension(a, token));
    const client = track(await connectMcp(b, token));
    await eventually(async () => ((await listOn(client.socket, 1)).length > 0 ? true : undefined));
    const connectionId = await attach(client, extension.extensionId);
    client.socket.send({ jsonrpc: '2.0', id: 'pending', method: 'slow' });
    await extension.socket.nextMatching((frame) => frame.method === 'slow');

    await a.kill();
    const error = await client.socket.nextMatching((frame) => frame.id === 'pending', 8_000);
    assert.deepEqual(error.error, {
      code: -32009,
      message: 'Extension disconnected: Proxy instance hosting the extension is gone',
    });
    assert.deepEqual(await client.socket.nextMatching((frame) => frame.method === 'disconnected'), {
      jsonrpc: '2.0',
      method: 'disconnected',
      params: { connection_id: connectionId, reason: 'Proxy instance hosting the extension is gone' },
    });
    assert.deepEqual(await listOn(client.socket, 9), []);
  });

  it('Redis restarts: instances reconnect, re-announce, and calls flow again', async () => {
    const c = await startTestProxy({ redisUrl: redis.url, instanceId: 'c', heartbeatMs: HEARTBEAT_MS });
    try {
      const token = await tokenFor('scale-restart');
      const extension = track(await connectExtension(c, token, 'Chrome on C'));
      autoAnswer(extension);
      const client = track(await connectMcp(b, token));
      await eventually(async () => ((await listOn(client.socket, 1)).length > 0 ? true : undefined));
      await attach(client, extension.extensionId);
      assert.deepEqual((await client.socket.request(2, 'ping')).result, { echo: 'ping', params: null });

      await redis.stop();
      // While Redis is away the cluster link is down: calls across instances fail fast instead of hanging.
      const during = await client.socket.request(3, 'ping');
      assert.equal((during.error as { code: number }).code, -32011);
      await redis.start();

      // Presence comes back (Redis restarted empty), and the existing connection works again.
      const relisted = await eventually(async () => {
        const extensions = await listOn(client.socket, 4);
        return extensions.length > 0 ? extensions : undefined;
      }, 10_000);
      assert.deepEqual(relisted, [{ id: extension.extensionId, name: 'Chrome on C', connected: true }]);
      const after = await eventually(async () => {
        const reply = await client.socket.request(5, 'ping');
        return reply.result ? reply : undefined;
      }, 10_000);
      assert.deepEqual(after.result, { echo: 'ping', params: null });

      // A newcomer can connect too, and /health on B says the link is up.
      const newcomer = track(await connectMcp(b, token));
      await attach(newcomer, extension.extensionId);
      assert.equal(await clusterLink(b), 'up');
    } finally {
      await c.close();
    }
  });
});
