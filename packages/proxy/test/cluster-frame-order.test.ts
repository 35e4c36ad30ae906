// One browser's frames reach a client on another instance in the order the browser sent them (decision 376): the
// proxy client numbers every frame it hears and takes that order for the browser's (decision 361).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserAndClient, clusterLink, useCluster } from '../../../test-support/proxy/cluster';
import { eventually } from '../../../test-support/proxy/fixtures';
import { RedisAdmin } from '../../../test-support/proxy/redis-admin';
import type { Json, TestSocket } from '../../../test-support/proxy/test-socket';

/** The one notification the extension sends (docs/remote.md#what-crosses-the-proxy). */
const NOTIFICATION = 'tabmcp/waitingForPerson';

/** The frames the scripted browser writes: answers to the client's calls, each followed by a notification. */
interface Frame {
  label: string;
  wire: Json;
}

/** Sends `count` calls; resolves with their mapped ids as the browser received them, by the client's id. */
async function callsAsked(client: TestSocket, browser: TestSocket, count: number): Promise<Map<string, string>> {
  for (let i = 0; i < count; i++) client.send({ jsonrpc: '2.0', id: `c${i}`, method: 'getTabs', params: { i } });
  const mapped = new Map<string, string>();
  while (mapped.size < count) {
    const request = await browser.next(10_000);
    const i = (request.params as { i?: number } | undefined)?.i;
    if (request.method === 'getTabs' && typeof request.id === 'string') mapped.set(`c${i}`, request.id);
  }
  return mapped;
}

/**
 * An answer per call, in an order of their own (every 7th an error: errors travel the same path), each followed by a
 * notification. Answers go out of call order, so the order the client hears can only be the browser's.
 */
function framesFor(mapped: Map<string, string>): Frame[] {
  const ids = [...mapped.keys()];
  // A fixed shuffle (stride coprime with the count), so a failure reproduces.
  const stride = 7 + (ids.length % 7 === 0 ? 1 : 0);
  const frames: Frame[] = [];
  for (let n = 0; n < ids.length; n++) {
    const clientId = ids[(n * stride) % ids.length] as string;
    const id = mapped.get(clientId);
    const answer = n % 7 === 3 ? { error: { code: -32000, message: `no ${clientId}` } } : { result: { n } };
    frames.push({ label: `answer ${clientId}`, wire: { jsonrpc: '2.0', id, ...answer } });
    frames.push({ label: `note ${n}`, wire: { jsonrpc: '2.0', method: NOTIFICATION, params: { n } } });
  }
  return frames;
}

/** The label of a frame the client heard, or undefined for the proxy's own frames (`status`). */
function labelOf(frame: Json): string | undefined {
  if (frame.method === NOTIFICATION) return `note ${(frame.params as { n: number }).n}`;
  if (typeof frame.id === 'string' && frame.method === undefined) return `answer ${frame.id}`;
  return undefined;
}

/** Collects what the client hears of the browser's frames into `labels`, in order, until `count` or the deadline. */
async function hear(client: TestSocket, labels: string[], count: number, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  while (labels.length < count) {
    const frame = await client.next(Math.max(1, deadline - Date.now())).catch(() => undefined);
    if (!frame) break;
    const label = labelOf(frame);
    if (label) labels.push(label);
  }
  return labels;
}

/**
 * How what the client heard differs from what the browser sent: frames that never came, came twice, or came after
 * a frame the browser sent later (out of order). All empty when the order held.
 */
function differences(sent: string[], heard: string[]): { lost: string[]; twice: string[]; overtaken: string[] } {
  const place = new Map(sent.map((label, index) => [label, index]));
  const seen = new Set<string>();
  const twice: string[] = [];
  const overtaken: string[] = [];
  let latest = -1;
  for (const label of heard) {
    if (seen.has(label)) twice.push(label);
    seen.add(label);
    const index = place.get(label) ?? -1;
    if (index < latest) overtaken.push(label);
    latest = Math.max(latest, index);
  }
  return { lost: sent.filter((label) => !seen.has(label)), twice, overtaken };
}

const IN_ORDER = { lost: [], twice: [], overtaken: [] };

describe("one browser's frames across instances keep their order (decision 376)", () => {
  // Each instance in a process of its own, as in production; a 1 s heartbeat keeps a drop of under a second from
  // making the browser's instance look dead (TTL 3 s).
  const cluster = useCluster({ heartbeatMs: 1_000, inProcess: [], spawned: ['clients', 'browsers'] });
  let admin: RedisAdmin;
  before(async () => {
    admin = await RedisAdmin.open(cluster.redis.url);
  });
  after(() => admin?.close());
  const pair = (user: string) =>
    browserAndClient(cluster, { browser: cluster.process('browsers'), client: cluster.process('clients') }, user);

  it('a burst of 150 answers, each followed by a notification, arrives as the browser sent it', async () => {
    const { extension, client } = await pair('order-burst');
    const frames = framesFor(await callsAsked(client.socket, extension.socket, 150));
    for (const frame of frames) extension.socket.send(frame.wire);
    const sent = frames.map((frame) => frame.label);
    const heard = await hear(client.socket, [], frames.length, 15_000);
    assert.deepEqual(differences(sent, heard), IN_ORDER);
    assert.deepEqual(heard, sent);
  });

  it('frames sent while the browser instance could not publish arrive in order, behind the ones before', async () => {
    const { extension, client } = await pair('order-drop');
    // Enough that the stream below outlasts the reconnect (its back-off reaches 1 s).
    const frames = framesFor(await callsAsked(client.socket, extension.socket, 300));
    const browsers = cluster.process('browsers');
    const nodeId = await admin.nodeOf('browsers');
    assert.ok(nodeId, 'the browser instance is in the node list');
    const expected = frames.map((frame) => frame.label);
    const labels: string[] = [];
    const listening = hear(client.socket, labels, frames.length, 20_000);

    const [before, during, after] = [frames.slice(0, 60), frames.slice(60, 120), frames.slice(120)];
    for (const frame of before) extension.socket.send(frame.wire);
    // Nothing in flight when the link drops: a publish cut mid-way may or may not have reached Redis.
    await eventually(() => (labels.length >= before.length ? true : undefined));
    const restore = await admin.holdDown(nodeId, 'commands');
    let restored = false;
    try {
      await eventually(async () => ((await clusterLink(browsers)) === 'down' ? true : undefined));
      for (const frame of during) extension.socket.send(frame.wire);
      // The rest as a stream across the reconnect: Redis refuses the instance for the stream's first part (so some
      // frames surely come while its link is down) and takes it back in the middle (so some come right after, before
      // what it held went out). A frame every 3 ms is the pace, not a wait for anything; nothing here asserts timing.
      for (const [index, frame] of after.entries()) {
        if (index === 60) {
          await restore();
          restored = true;
        }
        extension.socket.send(frame.wire);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    } finally {
      if (!restored) await restore();
    }
    await eventually(async () => ((await clusterLink(browsers)) === 'up' ? true : undefined));
    const heard = await listening;
    assert.deepEqual(differences(expected, heard), IN_ORDER);
    assert.deepEqual(heard, expected);
  });
});
