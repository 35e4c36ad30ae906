// Issue 27 P11: the presence records of a proxy instance that crashed go away on their own, within a heartbeat
// TTL and a sweep, even when nobody lists; and (issue 26) a record without the browser role, as an older instance
// wrote for a role-less token, is never listed. Real redis-server, the crashing instance in its own process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { useCluster } from '../../../test-support/proxy/cluster';
import { connectExtension, connectMcp, eventually, tokenFor } from '../../../test-support/proxy/fixtures';
import { type ProxyProcess, type RedisProcess, spawnProxy } from '../../../test-support/proxy/processes';
import type { ProxyServer } from '../src/index';

const HEARTBEAT_MS = 200;
const PREFIX = 'tabmcp:proxy:';

describe('presence of a crashed instance', () => {
  const cluster = useCluster({ heartbeatMs: HEARTBEAT_MS, spawned: ['crashing'], inProcess: ['survivor'] });
  let redis: RedisProcess;
  let crashing: ProxyProcess;
  let survivor: ProxyServer;
  let inspect: Redis;
  before(() => {
    redis = cluster.redis;
    crashing = cluster.process('crashing');
    survivor = cluster.instance('survivor');
    inspect = new Redis(redis.url);
  });
  after(() => inspect?.disconnect());

  it('are removed without anyone listing', async () => {
    const user = 'crash-presence';
    cluster.track(await connectExtension(crashing, await tokenFor(user), 'Chrome on the crashing instance'));
    await eventually(async () => ((await inspect.hlen(`${PREFIX}user:${user}`)) === 1 ? true : undefined));

    await crashing.kill();
    // No client lists: the survivor's heartbeat sweep alone must remove the record, and the node's own index.
    await eventually(async () => ((await inspect.hlen(`${PREFIX}user:${user}`)) === 0 ? true : undefined), 15_000);
    await eventually(async () => ((await inspect.smembers(`${PREFIX}nodes`)).length === 1 ? true : undefined), 5_000);
  });

  it('are removed after a crash of an instance that was swept while it stalled, and came back', async () => {
    const user = 'stalled-then-crashed';
    const stalling = await spawnProxy([
      '--redis',
      redis.url,
      '--instance-id',
      'stalling',
      '--heartbeat-ms',
      String(HEARTBEAT_MS),
    ]);
    const nodes = () => inspect.smembers(`${PREFIX}nodes`);
    const nodeId = await eventually(async () => (await nodes()).find((id) => id.startsWith('stalling/')));
    try {
      // What a live instance's sweep does to one that stalled past its heartbeat's TTL (a pause under load).
      // Both at once, as the sweep does them (in one script).
      await inspect.multi().del(`${PREFIX}node:${nodeId}`).srem(`${PREFIX}nodes`, nodeId).exec();
      // Its next heartbeat finds its key gone: it takes its place in the node list again.
      await eventually(async () => ((await nodes()).includes(nodeId) ? true : undefined));
      cluster.track(await connectExtension(stalling, await tokenFor(user), 'Chrome on the stalling instance'));
      await eventually(async () => ((await inspect.hlen(`${PREFIX}user:${user}`)) === 1 ? true : undefined));
    } finally {
      await stalling.kill();
    }
    await eventually(async () => ((await inspect.hlen(`${PREFIX}user:${user}`)) === 0 ? true : undefined), 15_000);
    await eventually(async () => ((await nodes()).includes(nodeId) ? undefined : true), 5_000);
  });

  it('a record without the browser role is never listed', async () => {
    const user = 'roleless-record';
    const nodeId = (await inspect.smembers(`${PREFIX}nodes`))[0];
    assert.ok(nodeId, 'the survivor is a member');
    const record = { extensionId: 'ext-old', userId: user, name: 'Chrome 141', nodeId, connectedAt: Date.now() };
    await inspect.hset(`${PREFIX}user:${user}`, 'ext-old', JSON.stringify(record));
    const agent = cluster.track(await connectMcp(survivor, await tokenFor(user)));
    assert.deepEqual((await agent.socket.request(1, 'list_extensions', {})).result, { extensions: [] });
    const connect = await agent.socket.request(2, 'connect', { extension_id: 'ext-old' });
    assert.ok(connect.error, 'connect to it is refused');
  });
});
