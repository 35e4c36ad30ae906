// Issue 39 Q1 and Q4 on a real redis-server: a browser that reconnected to another instance keeps its presence
// record whatever the old instance writes late, and the old instance's session of it is retired.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterLink, useCluster } from '../../../test-support/proxy/cluster';
import {
  attach,
  autoAnswer,
  connectExtension,
  connectMcp,
  eventually,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { type RedisProcess, startRedis } from '../../../test-support/proxy/processes';
import { RedisAdmin } from '../../../test-support/proxy/redis-admin';
import { RedisCluster } from '../src/cluster/redis-cluster';
import type { ProxyServer } from '../src/index';
import { silentLogger } from '../src/log/logger';

const HEARTBEAT_MS = 200;

describe('presence ownership across instances (issue 39)', () => {
  // A short call time-out: a call routed to a dead session fails in 3 s instead of 120.
  const cluster = useCluster({ heartbeatMs: HEARTBEAT_MS, inProcess: ['a', 'b'], limits: { callTimeoutMs: 3_000 } });
  let a: ProxyServer;
  let b: ProxyServer;
  let admin: RedisAdmin;
  before(async () => {
    a = cluster.instance('a');
    b = cluster.instance('b');
    admin = await RedisAdmin.open(cluster.redis.url);
  });
  after(() => admin?.close());

  it("Q1: the old instance's removal, queued while its Redis link was down, leaves the record of the browser's new session", async () => {
    const user = 'q1-user';
    const token = await tokenFor(user);
    const onA = cluster.track(await connectExtension(a, token, 'Chrome', 'q1-browser-instance-key'));
    await eventually(async () => ((await admin.record(user, onA.extensionId))?.nodeId === a.nodeId ? true : undefined));

    // A's link drops and stays down while the browser's socket on A closes: A's removal cannot run, and is queued.
    const restore = await admin.holdDown(a.nodeId);
    try {
      await eventually(async () => ((await clusterLink(a)) === 'down' ? true : undefined));
      onA.socket.terminate();
      await eventually(() => (a.stats().extensions === 0 ? true : undefined));
      // The browser redials, to B: same id, new session.
      const onB = cluster.track(await connectExtension(b, token, 'Chrome', 'q1-browser-instance-key'));
      autoAnswer(onB);
      assert.equal(onB.extensionId, onA.extensionId);
      await eventually(async () =>
        (await admin.record(user, onB.extensionId))?.nodeId === b.nodeId ? true : undefined,
      );
    } finally {
      await restore();
    }
    // A's link comes back and its queued removal runs: it must leave B's record alone.
    await eventually(async () => ((await clusterLink(a)) === 'up' ? true : undefined), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 4 * HEARTBEAT_MS));
    assert.equal((await admin.record(user, onA.extensionId))?.nodeId, b.nodeId);
    const client = cluster.track(await connectMcp(b, token));
    const listed = await client.socket.request(1, 'list_extensions', {});
    assert.deepEqual(
      (listed.result as { extensions: Array<{ id: string }> }).extensions.map(({ id }) => id),
      [onA.extensionId],
    );
    await attach(client, onA.extensionId);
    assert.deepEqual((await client.socket.request(2, 'ping', {})).result, { echo: 'ping', params: {} });
  });

  it('Q4: a reconnect to B retires the session lingering on A, and `connect` on A follows presence to B', async () => {
    const user = 'q4-user';
    const token = await tokenFor(user);
    // The old socket stays open and never answers: what a browser whose connection died unnoticed leaves behind.
    const stale = cluster.track(await connectExtension(a, token, 'Chrome', 'q4-browser-instance-key'));
    await eventually(async () =>
      (await admin.record(user, stale.extensionId))?.nodeId === a.nodeId ? true : undefined,
    );
    const live = cluster.track(await connectExtension(b, token, 'Chrome', 'q4-browser-instance-key'));
    autoAnswer(live);

    const closed = await Promise.race([
      stale.socket.closed,
      new Promise<undefined>((resolve) => setTimeout(resolve, 5_000, undefined)),
    ]);
    assert.ok(closed, 'the stale session on A is closed');
    assert.match(closed.reason, /newer connection of the same browser on another proxy instance/);

    const client = cluster.track(await connectMcp(a, token));
    await attach(client, live.extensionId);
    assert.deepEqual((await client.socket.request(3, 'ping', { via: 'a' })).result, {
      echo: 'ping',
      params: { via: 'a' },
    });
  });
});

describe('presence re-announce (issue 39 Q4)', () => {
  let redis: RedisProcess;
  let admin: RedisAdmin;
  let first: RedisCluster;
  let second: RedisCluster;

  before(async () => {
    redis = await startRedis();
    admin = await RedisAdmin.open(redis.url);
    first = new RedisCluster({ url: redis.url, logger: silentLogger, heartbeatMs: HEARTBEAT_MS });
    second = new RedisCluster({ url: redis.url, logger: silentLogger, heartbeatMs: HEARTBEAT_MS });
    await first.join('first', () => undefined);
    await second.join('second', () => undefined);
  });
  after(async () => {
    admin?.close();
    await Promise.all([first?.leave(), second?.leave()]);
    await redis?.stop();
  });

  it("a stale instance's re-announce never overwrites the newer session's record, and that instance learns it is stale", async () => {
    const base = {
      extensionId: 'ext-q4',
      userId: 'q4-reannounce',
      name: 'Chrome',
      connectedAt: 1,
      role: 'extension' as const,
    };
    const superseded: string[] = [];
    first.onSuperseded((record) => superseded.push(record.session));
    await first.presence.announce({ ...base, nodeId: 'first', session: 'old', epoch: 0 });
    const outcome = await second.presence.announce({ ...base, nodeId: 'second', session: 'new', epoch: 0 });
    assert.equal(outcome.replaced?.session, 'old', 'the newer announce names the session it replaced');

    // The first node's links drop and come back: it writes what it announced again.
    assert.ok((await admin.kill('first')) > 0);
    await eventually(() => (superseded.length > 0 ? true : undefined), 5_000);
    assert.deepEqual(superseded, ['old']);
    assert.equal((await admin.record('q4-reannounce', 'ext-q4'))?.session, 'new');
    assert.equal((await second.presence.find('q4-reannounce', 'ext-q4'))?.nodeId, 'second');
  });
});
