// The core without any socket: fake peers, in-memory cluster, two nodes in one process.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { browserToken, eventually, SECRET, tokenFor } from '../../../test-support/proxy/fixtures';
import {
  createJsonLogger,
  createTokenVerifier,
  isReservedClientId,
  type LeveledLogger,
  MemoryClusterHub,
  mapRequestId,
  type Peer,
  ProxyCore,
  resolveLimits,
  type Session,
  silentLogger,
} from '../src/index';

type Frame = Record<string, unknown>;

class FakePeer implements Peer {
  readonly frames: Frame[] = [];
  closedWith: { code: number; reason: string } | undefined;
  send(frame: string): void {
    this.frames.push(JSON.parse(frame) as Frame);
  }
  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
  }
  take(): Frame[] {
    return this.frames.splice(0);
  }
  last(): Frame | undefined {
    return this.frames.at(-1);
  }
}

const cores: ProxyCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function newCore(
  hub: MemoryClusterHub,
  nodeId: string,
  livenessIntervalMs = 50,
  logger: LeveledLogger = silentLogger,
): Promise<ProxyCore> {
  const core = new ProxyCore({
    nodeId,
    verifier: await createTokenVerifier({ secret: SECRET }),
    cluster: hub.node(),
    limits: resolveLimits({ callTimeoutMs: 1_000 }),
    logger,
    livenessIntervalMs,
  });
  await core.start();
  cores.push(core);
  return core;
}

const send = (session: Session, frame: Frame) => session.receive(JSON.stringify({ jsonrpc: '2.0', ...frame }));

async function authenticatedExtension(core: ProxyCore, token: string) {
  const peer = new FakePeer();
  const session = core.acceptExtension(peer);
  assert.deepEqual(peer.take(), [{ jsonrpc: '2.0', id: 'proxy:1', method: 'authenticate', params: {} }]);
  send(session, { id: 'proxy:1', result: { name: 'Chrome', accessToken: await browserToken(token) } });
  const authenticated = await eventually(() => peer.frames.find((frame) => frame.method === 'authenticated'));
  peer.take();
  return { peer, session, extensionId: (authenticated.params as { extension_id: string }).extension_id };
}

async function extensionWithInstance(core: ProxyCore, token: string, instance: string) {
  const peer = new FakePeer();
  const session = core.acceptExtension(peer);
  peer.take();
  send(session, { id: 'proxy:1', result: { name: 'Chrome', accessToken: await browserToken(token), instance } });
  const authenticated = await eventually(() => peer.frames.find((frame) => frame.method === 'authenticated'));
  peer.take();
  return { peer, session, extensionId: (authenticated.params as { extension_id: string }).extension_id };
}

async function authenticatedClient(core: ProxyCore, token: string) {
  const peer = new FakePeer();
  const session = core.acceptMcpClient(peer);
  send(session, { id: 1, method: 'mcp_handshake', params: { accessToken: token } });
  await eventually(() => peer.frames.find((frame) => frame.id === 1));
  peer.take();
  return { peer, session };
}

describe('id mapping', () => {
  it('maps and recognises reserved ids', () => {
    assert.equal(mapRequestId('conn-a', 1), 'conn-a:1');
    assert.equal(mapRequestId('conn-a', 'x:y'), 'conn-a:x:y');
    for (const id of ['proxy:1', 'ext:2', 'Proxy:3', 'conn-abc:1', 'my-conn-x:1'])
      assert.equal(isReservedClientId(id), true, id);
    for (const id of [1, 'proxy', 'conn-', 'abc', '550e8400-e29b-41d4-a716-446655440000']) {
      assert.equal(isReservedClientId(id), false, String(id));
    }
  });
});

describe('core on one node', () => {
  it('runs handshake, connect and a forwarded call with no socket at all', async () => {
    const core = await newCore(new MemoryClusterHub(), 'solo');
    const token = await tokenFor('core-user');
    const extension = await authenticatedExtension(core, token);
    const client = await authenticatedClient(core, token);
    send(client.session, { id: 2, method: 'connect', params: { extension_id: extension.extensionId } });
    const connected = await eventually(() => client.peer.frames.find((frame) => frame.id === 2));
    const connectionId = (connected.result as { connection_id: string }).connection_id;
    send(client.session, { id: 3, method: 'getTabs' });
    const forwarded = await eventually(() => extension.peer.frames.find((frame) => frame.method === 'getTabs'));
    assert.equal(forwarded.id, `${connectionId}:3`);
    send(extension.session, { id: forwarded.id, result: { tabs: [] } });
    assert.deepEqual(client.peer.last(), { jsonrpc: '2.0', id: 3, result: { tabs: [] } });
    assert.deepEqual(core.stats(), {
      extensions: 1,
      unauthenticatedExtensions: 0,
      mcpClients: 1,
      connections: 1,
      inFlight: 0,
    });
    client.session.closed();
    extension.session.closed();
    assert.deepEqual(core.stats(), {
      extensions: 0,
      unauthenticatedExtensions: 0,
      mcpClients: 0,
      connections: 0,
      inFlight: 0,
    });
  });

  it('gives a browser the same id at every reconnect, so --extension-id finds it again (issue 27 P3)', async () => {
    const core = await newCore(new MemoryClusterHub(), 'solo');
    const token = await tokenFor('stable-user');
    const first = await extensionWithInstance(core, token, 'laptop-chrome-0123456789');
    assert.match(first.extensionId, /^ext-[0-9a-f-]{36}$/);
    first.session.closed();
    const again = await extensionWithInstance(core, token, 'laptop-chrome-0123456789');
    assert.equal(again.extensionId, first.extensionId);
    // Its old socket still lingering when it comes back: the newer connection wins, listed once.
    const lingering = await extensionWithInstance(core, token, 'laptop-chrome-0123456789');
    assert.equal(lingering.extensionId, first.extensionId);
    const client = await authenticatedClient(core, token);
    send(client.session, { id: 2, method: 'list_extensions' });
    const listed = await eventually(() => client.peer.frames.find((frame) => frame.id === 2));
    assert.deepEqual(
      (listed.result as { extensions: Array<{ id: string }> }).extensions.map((entry) => entry.id),
      [first.extensionId],
    );
    // Another key, or another user with the same key, is another browser.
    const other = await extensionWithInstance(core, token, 'desktop-chrome-0123456789');
    assert.notEqual(other.extensionId, first.extensionId);
    const stranger = await extensionWithInstance(core, await tokenFor('other-user'), 'laptop-chrome-0123456789');
    assert.notEqual(stranger.extensionId, first.extensionId);
  });

  it('answers every request sent right behind mcp_handshake, past the backlog too (issue 27 P5)', async () => {
    const core = await newCore(new MemoryClusterHub(), 'solo');
    const token = await tokenFor('eager-user');
    const peer = new FakePeer();
    const session = core.acceptMcpClient(peer);
    send(session, { id: 1, method: 'mcp_handshake', params: { accessToken: token } });
    for (let id = 2; id <= 101; id++) send(session, { id, method: 'list_extensions' });
    const answered = () =>
      new Set(peer.frames.filter((frame) => typeof frame.id === 'number').map((frame) => frame.id));
    await eventually(() => (answered().size === 101 ? true : undefined));
    const refused = peer.frames.filter((frame) => frame.error !== undefined);
    assert.ok(refused.length > 0);
    assert.match(JSON.stringify(refused[0]?.error), /before mcp_handshake was answered/);
  });

  it('refuses at once a request id too long to forward, instead of letting it go unanswered (issue 27 P6)', async () => {
    const core = await newCore(new MemoryClusterHub(), 'solo');
    const token = await tokenFor('long-id-user');
    const extension = await authenticatedExtension(core, token);
    const client = await authenticatedClient(core, token);
    send(client.session, { id: 2, method: 'connect', params: { extension_id: extension.extensionId } });
    await eventually(() => client.peer.frames.find((frame) => frame.id === 2));
    const long = 'x'.repeat(480);
    send(client.session, { id: long, method: 'getTabs' });
    const answer = await eventually(() => client.peer.frames.find((frame) => frame.id === long));
    assert.match(JSON.stringify(answer.error), /ids of forwarded requests may have at most 470 characters/);
    assert.equal(extension.peer.frames.filter((frame) => frame.method === 'getTabs').length, 0);
    const fits = 'y'.repeat(470);
    send(client.session, { id: fits, method: 'getTabs' });
    const forwarded = await eventually(() => extension.peer.frames.find((frame) => frame.method === 'getTabs'));
    assert.equal(String(forwarded.id).length, 512);
  });

  it('an unauthenticated extension that closes leaves nothing behind', async () => {
    const core = await newCore(new MemoryClusterHub(), 'solo2');
    const peer = new FakePeer();
    core.acceptExtension(peer).closed();
    assert.equal(core.stats().unauthenticatedExtensions, 0);
  });
});

describe('core on two nodes sharing an in-memory cluster', () => {
  it('routes list, connect, calls and notifications across nodes; isolation holds', async () => {
    const hub = new MemoryClusterHub();
    const a = await newCore(hub, 'node-a');
    const b = await newCore(hub, 'node-b');
    const token = await tokenFor('cross-user');
    const extension = await authenticatedExtension(a, token);
    const client = await authenticatedClient(b, token);
    const stranger = await authenticatedClient(b, await tokenFor('stranger'));

    send(client.session, { id: 1, method: 'list_extensions' });
    const list = await eventually(() => client.peer.frames.find((frame) => frame.id === 1));
    assert.deepEqual(list.result, { extensions: [{ id: extension.extensionId, name: 'Chrome', connected: true }] });
    send(stranger.session, { id: 1, method: 'connect', params: { extension_id: extension.extensionId } });
    const refused = await eventually(() => stranger.peer.frames.find((frame) => frame.id === 1));
    assert.deepEqual(refused.error, { code: -32000, message: 'Extension not found or not accessible' });

    send(client.session, { id: 2, method: 'connect', params: { extension_id: extension.extensionId } });
    const connected = await eventually(() => client.peer.frames.find((frame) => frame.id === 2));
    const connectionId = (connected.result as { connection_id: string }).connection_id;
    const status = extension.peer.take()[0];
    assert.equal(status?.method, 'status');
    assert.equal((status?.params as { peer_count?: number } | undefined)?.peer_count, 1);

    send(client.session, { id: 'q', method: 'getTabs', params: { all: true } });
    const forwarded = await eventually(() => extension.peer.frames.find((frame) => frame.method === 'getTabs'));
    assert.deepEqual(forwarded, { jsonrpc: '2.0', id: `${connectionId}:q`, method: 'getTabs', params: { all: true } });
    send(extension.session, { id: forwarded.id, result: ['t1'] });
    send(extension.session, { method: 'tabsChanged', params: { n: 1 } });
    await eventually(() => client.peer.frames.find((frame) => frame.method === 'tabsChanged'));
    assert.deepEqual(
      client.peer.take().filter((frame) => frame.id === 'q' || frame.method === 'tabsChanged'),
      [
        { jsonrpc: '2.0', id: 'q', result: ['t1'] },
        { jsonrpc: '2.0', method: 'tabsChanged', params: { n: 1 } },
      ],
    );

    // The extension closes on node A: the client on node B hears about it and its call in flight fails.
    send(client.session, { id: 'r', method: 'slow' });
    await eventually(() => extension.peer.frames.find((frame) => frame.method === 'slow'));
    extension.session.closed();
    await eventually(() => client.peer.frames.find((frame) => frame.method === 'disconnected'));
    assert.deepEqual(client.peer.take(), [
      { jsonrpc: '2.0', id: 'r', error: { code: -32009, message: 'Extension disconnected: Extension closed' } },
      { jsonrpc: '2.0', method: 'disconnected', params: { connection_id: connectionId, reason: 'Extension closed' } },
    ]);
  });

  it("a node that dies is noticed: its clients' peers get `disconnected` and errors", async () => {
    const hub = new MemoryClusterHub();
    const a = await newCore(hub, 'node-a2');
    const b = await newCore(hub, 'node-b2');
    const token = await tokenFor('crash-user');
    const extension = await authenticatedExtension(a, token);
    const client = await authenticatedClient(b, token);
    send(client.session, { id: 2, method: 'connect', params: { extension_id: extension.extensionId } });
    await eventually(() => client.peer.frames.find((frame) => frame.id === 2));
    send(client.session, { id: 3, method: 'slow' });
    await eventually(() => extension.peer.frames.find((frame) => frame.method === 'slow'));
    client.peer.take();

    hub.crash('node-a2');
    await eventually(() => client.peer.frames.find((frame) => frame.method === 'disconnected'), 2_000);
    const frames = client.peer.take();
    assert.deepEqual(frames[0], {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32009, message: 'Extension disconnected: Proxy instance hosting the extension is gone' },
    });
    assert.equal(
      (frames[1]?.params as { reason?: string } | undefined)?.reason,
      'Proxy instance hosting the extension is gone',
    );
    // The dead node's extension is no longer listed.
    send(client.session, { id: 4, method: 'list_extensions' });
    const list = await eventually(() => client.peer.frames.find((frame) => frame.id === 4));
    assert.deepEqual(list.result, { extensions: [] });
  });
});

/**
 * A browser with no latency at all: the moment it hears it has a client (`status`), it sends `count` notifications,
 * from inside the proxy's own send, so they meet the connect wherever it is.
 */
function speaksOnAttach(extension: { peer: FakePeer; session: Session }, count = 1): void {
  const deliver = extension.peer.send.bind(extension.peer);
  let spoken = false;
  extension.peer.send = (frame: string) => {
    deliver(frame);
    const parsed = JSON.parse(frame) as Frame;
    if (spoken || parsed.method !== 'status' || (parsed.params as { peer_count: number }).peer_count === 0) return;
    spoken = true;
    for (let n = 0; n < count; n++) send(extension.session, { method: 'tabmcp/waitingForPerson', params: { n } });
  };
}

/** What the client heard of its connect (id 2), the `status` after it and the browser's notifications, in order. */
function connectWindowLabels(frames: Frame[]): string[] {
  return frames.map((frame) => (frame.id === 2 ? `answer ${frame.result ? 'ok' : 'error'}` : String(frame.method)));
}

/** A client that sends `connect` (id 2) to a browser that speaks on attach; the browser on `browserCore`. */
async function connectToSpeakingBrowser(browserCore: ProxyCore, clientCore: ProxyCore, user: string, count = 1) {
  const token = await tokenFor(user);
  const extension = await authenticatedExtension(browserCore, token);
  const client = await authenticatedClient(clientCore, token);
  speaksOnAttach(extension, count);
  send(client.session, { id: 2, method: 'connect', params: { extension_id: extension.extensionId } });
  return client;
}

describe("a browser's notification in a client's connect window (decision 384)", () => {
  it('on one node it reaches the client after the connect answer, not before', async () => {
    const core = await newCore(new MemoryClusterHub(), 'solo');
    const client = await connectToSpeakingBrowser(core, core, 'window-one');
    await eventually(() => client.peer.frames.find((frame) => frame.method === 'tabmcp/waitingForPerson'));
    assert.deepEqual(connectWindowLabels(client.peer.take()), ['answer ok', 'status', 'tabmcp/waitingForPerson']);
  });

  it('across nodes it is not lost while the link is being set', async () => {
    const hub = new MemoryClusterHub();
    const a = await newCore(hub, 'node-a');
    const b = await newCore(hub, 'node-b');
    const client = await connectToSpeakingBrowser(a, b, 'window-two');
    await eventually(() => client.peer.frames.find((frame) => frame.method === 'status'));
    const heard = await eventually(() => {
      const labels = connectWindowLabels(client.peer.frames);
      return labels.includes('tabmcp/waitingForPerson') ? labels : undefined;
    }, 1_000);
    assert.deepEqual(heard, ['answer ok', 'status', 'tabmcp/waitingForPerson']);
  });

  it('holds at most 256 notifications; the rest are dropped with a log line', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'warn', write: (line) => lines.push(line) });
    const core = await newCore(new MemoryClusterHub(), 'solo', 50, logger);
    const client = await connectToSpeakingBrowser(core, core, 'window-full', 300);
    await eventually(() => client.peer.frames.find((frame) => frame.id === 2));
    const heard = client.peer.take();
    assert.deepEqual(connectWindowLabels(heard.slice(0, 2)), ['answer ok', 'status']);
    const numbers = heard.slice(2).map((frame) => (frame.params as { n: number }).n);
    assert.deepEqual(numbers, [...Array(256).keys()]);
    const dropped = lines
      .map((line) => JSON.parse(line) as Frame)
      .find((line) => line.event === 'mcp.connect_window_dropped');
    assert.deepEqual(
      { overflowed: dropped?.overflowed, delivered: dropped?.delivered },
      { overflowed: 44, delivered: 256 },
    );
  });
});
