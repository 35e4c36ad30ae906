// Issue 39 Q2, Q3 and Q7 on a real redis-server: the browser's answer reaches a caller on another instance across a
// Redis drop on the browser's side; answers are not rate-limited, asking is; a detach lost in a drop is reconciled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserAndClient, clusterLink, useCluster } from '../../../test-support/proxy/cluster';
import { attach, autoAnswer, connectMcp, eventually } from '../../../test-support/proxy/fixtures';
import { RedisAdmin } from '../../../test-support/proxy/redis-admin';
import type { Json } from '../../../test-support/proxy/test-socket';

describe('reply path across instances (issue 39)', () => {
  const cluster = useCluster({
    // Long enough that a drop of a few hundred ms does not make the other instance look dead (TTL 1.5 s).
    heartbeatMs: 500,
    inProcess: ['a', 'b'],
    // Every socket gets 2 messages/s with a burst of 20: two clients, each within that, ask one browser 30 times.
    limits: { ratePerSecond: 2, rateBurst: 20, callTimeoutMs: 4_000 },
  });
  const a = () => cluster.instance('a');
  const b = () => cluster.instance('b');
  let admin: RedisAdmin;
  before(async () => {
    admin = await RedisAdmin.open(cluster.redis.url);
  });
  after(() => admin?.close());

  /** A browser on A and a client on B connected to it. */
  const browserOnAClientOnB = (user: string) =>
    browserAndClient(cluster, { browser: a(), client: b() }, user, 'Chrome on A');

  it("Q2: the browser's answer, given while Redis was away on its instance, still reaches the caller", async () => {
    const { extension, client } = await browserOnAClientOnB('q2-user');
    client.socket.send({ jsonrpc: '2.0', id: 'q2', method: 'getTabs', params: {} });
    const asked = await extension.socket.nextMatching((frame) => frame.method === 'getTabs');

    const restore = await admin.holdDown(a().nodeId, 'commands');
    try {
      await eventually(async () => ((await clusterLink(a())) === 'down' ? true : undefined));
      // A cannot publish the answer now.
      extension.socket.send({ jsonrpc: '2.0', id: asked.id, result: { tabs: ['the true answer'] } });
      await new Promise((resolve) => setTimeout(resolve, 150));
    } finally {
      await restore();
    }
    const reply = await client.socket.nextMatching((frame) => frame.id === 'q2', 5_000);
    assert.deepEqual(reply.result, { tabs: ['the true answer'] });
  });

  it('Q3: two clients on one browser, each within its own rate limit, get every answer', async () => {
    const { token, extension, client } = await browserOnAClientOnB('q3-user');
    autoAnswer(extension);
    const second = cluster.track(await connectMcp(b(), token));
    await attach(second, extension.extensionId);
    const replies: Promise<Json>[] = [];
    for (let i = 0; i < 15; i++) {
      for (const [name, socket] of [
        ['first', client.socket],
        ['second', second.socket],
      ] as const) {
        socket.send({ jsonrpc: '2.0', id: `${name}-${i}`, method: 'getTabs', params: { i } });
        replies.push(socket.nextMatching((frame) => frame.id === `${name}-${i}`, 6_000));
      }
    }
    const answered = await Promise.all(replies);
    assert.deepEqual(
      answered.filter((reply) => reply.error !== undefined),
      [],
      'no answer of the browser is dropped by its rate limit',
    );

    // Answers nobody asked for still count: a flood of them uses the browser's budget up, so its next
    // notification is dropped (the clients never see it).
    for (let i = 0; i < 25; i++) {
      extension.socket.send({ jsonrpc: '2.0', id: `conn-00000000-0000-4000-8000-000000000000:${i}`, result: {} });
    }
    extension.socket.send({ jsonrpc: '2.0', method: 'tabsChanged', params: { flood: true } });
    const seen = await client.socket.drain(300);
    assert.equal(seen.filter((frame) => frame.method === 'tabsChanged').length, 0);
  });

  it("Q7: a detach lost while Redis was away on the client's instance leaves no phantom client", async () => {
    const { extension, client } = await browserOnAClientOnB('q7-user');
    const restore = await admin.holdDown(b().nodeId, 'commands');
    try {
      await eventually(async () => ((await clusterLink(b())) === 'down' ? true : undefined));
      // B answers the disconnect itself; the detach it publishes to A fails.
      assert.deepEqual((await client.socket.request('bye', 'disconnect', {})).result, { disconnected: true });
    } finally {
      await restore();
    }
    const status = await extension.socket.nextMatching(
      (frame) => frame.method === 'status' && (frame.params as { peer_count: number }).peer_count === 0,
      8_000,
    );
    assert.equal((status.params as { connected: boolean }).connected, false);
  });
});
