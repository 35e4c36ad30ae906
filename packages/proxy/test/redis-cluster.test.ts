// The Redis cluster's link rules (issue 15, item 5.1): no offline queue, re-subscribe after a Redis restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../../../test-support/proxy/fixtures';
import { type RedisProcess, startRedis } from '../../../test-support/proxy/processes';
import { RedisCluster } from '../src/cluster/redis-cluster';
import { silentLogger } from '../src/log/logger';
import type { Envelope } from '../src/wire/envelopes';

const ENDED: Envelope = { t: 'ended', from: 'a', connectionIds: ['conn-1'], reason: 'test' };

describe('RedisCluster link', () => {
  let redis: RedisProcess;
  let a: RedisCluster;
  let b: RedisCluster;
  const toB: Envelope[] = [];

  before(async () => {
    redis = await startRedis();
    a = new RedisCluster({ url: redis.url, logger: silentLogger, heartbeatMs: 200 });
    b = new RedisCluster({ url: redis.url, logger: silentLogger, heartbeatMs: 200 });
    await a.join('a', () => undefined);
    await b.join('b', (envelope) => toB.push(envelope));
  });
  after(async () => {
    await Promise.all([a?.leave(), b?.leave()]);
    await redis?.stop();
  });

  it('a publish while Redis is down fails at once instead of queueing', async () => {
    await a.bus.publish('b', ENDED);
    await eventually(async () => (toB.length === 1 ? true : undefined));

    await redis.stop();
    await eventually(async () => (a.state() === 'down' ? true : undefined));
    // A queued command would only fail at the 5 s command time-out (or be sent after the restart).
    await assert.rejects(a.bus.publish('b', ENDED), (error: Error) => !/timed out/i.test(error.message));
  });

  it('after Redis restarts empty, both links come back and the bus channel is subscribed again', async () => {
    await redis.start();
    await eventually(async () => (a.state() === 'up' && b.state() === 'up' ? true : undefined), 10_000);
    // Until b's SUBSCRIBE is replayed, Redis counts no receiver and publish rejects.
    await eventually(
      () =>
        a.bus.publish('b', ENDED).then(
          () => true,
          () => undefined,
        ),
      10_000,
    );
    await eventually(async () => (toB.length === 2 ? true : undefined));
    assert.deepEqual(toB[1], ENDED);
  });
});
