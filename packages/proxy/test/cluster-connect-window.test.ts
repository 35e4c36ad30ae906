// A notification the browser sends the moment a client attaches reaches that client, after the answer to its
// `connect` (decision 384): across two instances it was dropped when it reached the client's instance together with
// the attach's confirmation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserListed, useCluster } from '../../../test-support/proxy/cluster';
import type { ProxyProcess } from '../../../test-support/proxy/processes';
import { BusWatcher, RedisAdmin } from '../../../test-support/proxy/redis-admin';
import type { Json, TestSocket } from '../../../test-support/proxy/test-socket';

/** The one notification the extension sends (docs/remote.md#what-crosses-the-proxy). */
const NOTIFICATION = 'tabmcp/waitingForPerson';

/** What the client hears until the browser's notification, or until `timeoutMs` passes without it. */
async function heardUntilNotification(client: TestSocket, timeoutMs: number): Promise<string[]> {
  const heard: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = await client.next(Math.max(1, deadline - Date.now())).catch(() => undefined);
    if (!frame) return heard;
    heard.push(labelOf(frame));
    if (frame.method === NOTIFICATION) return heard;
  }
}

function labelOf(frame: Json): string {
  if (frame.id === 'connect') return frame.result ? 'connect answer' : `connect error ${JSON.stringify(frame.error)}`;
  return String(frame.method);
}

function pause(proxy: ProxyProcess): void {
  if (proxy.pid !== undefined) process.kill(proxy.pid, 'SIGSTOP');
}

function resume(proxy: ProxyProcess): void {
  if (proxy.pid !== undefined) process.kill(proxy.pid, 'SIGCONT');
}

describe("a browser's notification in a client's connect window (decision 384)", () => {
  // A 1 s heartbeat: an instance paused for a few milliseconds below stays well inside its TTL (3 s).
  const cluster = useCluster({ heartbeatMs: 1_000, inProcess: [], spawned: ['clients', 'browsers'] });
  let admin: RedisAdmin;
  before(async () => {
    admin = await RedisAdmin.open(cluster.redis.url);
  });
  after(() => admin?.close());

  it("across instances, one sent as the browser hears of the attach arrives after the connect's answer", async () => {
    const browsers = cluster.process('browsers');
    const clients = cluster.process('clients');
    const { extension, client } = await browserListed(
      cluster,
      { browser: browsers, client: clients },
      'connect-window',
    );
    const [browserNode, clientNode] = await Promise.all([admin.nodeOf('browsers'), admin.nodeOf('clients')]);
    assert.ok(browserNode && clientNode, 'both instances are in the node list');
    const bus = await BusWatcher.open(cluster.redis.url, [browserNode, clientNode]);
    try {
      // The client's instance must take in the attach's confirmation and the notification in one read, as it does
      // whenever they reach it close together. Both instances are paused in turn so that they surely do: the
      // browser's while the attach is on its way, then the client's until both are in its socket.
      pause(browsers);
      try {
        client.socket.send({
          jsonrpc: '2.0',
          id: 'connect',
          method: 'connect',
          params: { extension_id: extension.extensionId },
        });
        await bus.message(({ to, envelope }) => to === browserNode && envelope.t === 'attach');
        pause(clients);
      } finally {
        resume(browsers);
      }
      try {
        await extension.socket.nextMatching((frame) => frame.method === 'status' && hasPeers(frame), 5_000);
        extension.socket.send({ jsonrpc: '2.0', method: NOTIFICATION, params: { requestId: 'probe' } });
        await bus.message(({ to, envelope }) => to === clientNode && envelope.t === 'ext-notify');
      } finally {
        resume(clients);
      }
      assert.deepEqual(await heardUntilNotification(client.socket, 3_000), ['connect answer', 'status', NOTIFICATION]);
    } finally {
      bus.close();
    }
  });
});

function hasPeers(frame: Json): boolean {
  return ((frame.params as { peer_count?: number } | undefined)?.peer_count ?? 0) > 0;
}
