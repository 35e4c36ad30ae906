// The proxy cluster under faults (issue 39): proxy instances in their own processes on one real redis-server, fake
// browsers and agents over real WebSockets, and a seeded schedule of faults: Redis connections cut with CLIENT KILL,
// an instance stopped (SIGSTOP) past its heartbeat's TTL, browsers redialing another instance (their old socket
// closed, or left open and dead). Every call must get its true answer or an error that names its cause.
import { type RawData, WebSocket } from 'ws';
import { browserToken, tokenFor } from './fixtures';
import { type ProxyProcess, type RedisProcess, spawnProxy, startRedis } from './processes';
import { RedisAdmin } from './redis-admin';

export interface ChaosOptions {
  seed: number;
  instances: number;
  browsers: number;
  clients: number;
  /** How long calls are made and faults injected; then the calls in flight drain and the cluster settles. */
  durationMs: number;
  /** Time between two faults. */
  faultEveryMs: number;
  heartbeatMs: number;
  /** Calls each client keeps in flight. */
  window: number;
  log?: (line: string) => void;
}

export interface ChaosResult {
  seed: number;
  instances: number;
  browsers: number;
  clients: number;
  durationMs: number;
  calls: number;
  answered: number;
  /** An answer that was not the browser's answer to that call. */
  wrongAnswers: number;
  /** Errors that name their cause, by code and the first words of the message. */
  namedErrors: Record<string, number>;
  /** "Extension did not answer" (-32002): the browsers here always answer, so each of these is wrong. */
  didNotAnswer: number;
  /** Calls with no answer at all when the run ended. */
  lost: number;
  /** Browsers connected at the end that an instance does not list, or cannot reach with a call. */
  vanishedBrowsers: number;
  /** Browser sessions held across the instances at the end beyond one per browser. */
  extraSessions: number;
  faults: Record<string, number>;
}

type Frame = Record<string, unknown>;

/** mulberry32: the same seed, the same schedule. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** SIGCONT, if the process is still there. */
function resume(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Gone already (the run is being torn down).
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `onFrame` gets the socket too: the first frame may come in the same tick as `open`, before anyone holds it. */
function open(url: string, onFrame: (frame: Frame, ws: WebSocket) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', (data: RawData) => onFrame(JSON.parse(String(data)) as Frame, ws));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.on('error', () => undefined);
  });
}

interface Instance {
  process: ProxyProcess;
  nodeId: string;
  url: string;
}

/** A browser with a stable id (its instance key) that answers every request with its params. */
class FakeBrowser {
  extensionId = '';
  private socket: WebSocket | undefined;
  /** Sockets left open after a redial: dead, they answer nothing, as a connection that died unnoticed. */
  readonly lingering: WebSocket[] = [];

  constructor(
    readonly key: string,
    private readonly token: string,
  ) {}

  async connect(instance: Instance): Promise<void> {
    const accessToken = await browserToken(this.token);
    let socket: WebSocket | undefined;
    const authenticated = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('browser not authenticated in 10 s')), 10_000);
      const onFrame = (frame: Frame, ws: WebSocket) => {
        socket = ws;
        if (socket && this.lingering.includes(socket)) return; // dead: answers nothing
        if (frame.method === 'authenticate') {
          socket?.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: frame.id,
              result: { name: 'Chaos Chrome', accessToken, instance: this.key },
            }),
          );
        } else if (frame.method === 'authenticated') {
          clearTimeout(timer);
          resolve((frame.params as { extension_id: string }).extension_id);
        } else if (frame.id !== undefined && frame.method !== undefined) {
          socket?.send(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: { echo: frame.params } }));
        }
      };
      open(`${instance.url}/extension`, onFrame).catch(reject);
    });
    this.extensionId = await authenticated;
    this.socket = socket;
  }

  /** Redials: the old socket is closed, or left open and dead (it then answers nothing). */
  async redial(instance: Instance, leaveOldOpen: boolean): Promise<void> {
    const old = this.socket;
    this.socket = undefined;
    if (old && leaveOldOpen) this.lingering.push(old);
    else old?.terminate();
    await this.connect(instance);
  }

  close(): void {
    this.socket?.terminate();
    for (const socket of this.lingering) socket.terminate();
  }
}

interface Outcomes {
  calls: number;
  answered: number;
  wrongAnswers: number;
  didNotAnswer: number;
  namedErrors: Record<string, number>;
}

/** An agent bound to one browser: connects, keeps `window` calls in flight, connects again when its link ends. */
class FakeClient {
  private socket: WebSocket | undefined;
  private readonly waiting = new Map<string, { token: string; resolve: (frame: Frame) => void }>();
  private connected = false;
  private next = 0;
  private stopping = false;

  constructor(
    private readonly name: string,
    private readonly token: string,
    private readonly browser: FakeBrowser,
    private readonly outcomes: Outcomes,
    private readonly pick: () => Instance,
    private readonly window: number,
  ) {}

  get inFlight(): number {
    return [...this.waiting.keys()].filter((id) => id.startsWith('call-')).length;
  }

  async run(until: number): Promise<void> {
    this.socket = await open(`${this.pick().url}/mcp`, (frame) => this.onFrame(frame));
    await this.request('mcp_handshake', { accessToken: this.token });
    const workers = Array.from({ length: this.window }, () => this.work(until));
    await Promise.all(workers);
  }

  stop(): void {
    this.stopping = true;
  }

  close(): void {
    this.socket?.terminate();
  }

  private async work(until: number): Promise<void> {
    while (Date.now() < until && !this.stopping) {
      if (!this.connected) {
        await this.connect();
        continue;
      }
      const token = `${this.name}-${this.next++}`;
      this.outcomes.calls++;
      const reply = await this.request('getTabs', { token }, `call-${token}`);
      this.classify(token, reply);
      // An agent waits a moment after an error before it calls again, rather than spinning on a broken route.
      if (reply.error !== undefined) await sleep(20);
    }
  }

  private connecting: Promise<void> | undefined;

  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const reply = await this.request('connect', { extension_id: this.browser.extensionId });
      if (reply.result) this.connected = true;
      else await sleep(50);
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private classify(token: string, reply: Frame): void {
    if (reply.result !== undefined) {
      const echo = (reply.result as { echo?: { token?: string } }).echo?.token;
      if (echo === token) this.outcomes.answered++;
      else this.outcomes.wrongAnswers++;
      return;
    }
    const error = reply.error as { code: number; message: string };
    if (error.code === -32002 || /did not answer/i.test(error.message)) {
      this.outcomes.didNotAnswer++;
      return;
    }
    const key = `${error.code} ${error.message.split(/[:.]/)[0]}`;
    this.outcomes.namedErrors[key] = (this.outcomes.namedErrors[key] ?? 0) + 1;
  }

  private request(method: string, params: unknown, id = `${method}-${this.next++}`): Promise<Frame> {
    return new Promise((resolve) => {
      this.waiting.set(id, { token: id, resolve });
      this.socket?.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  private onFrame(frame: Frame): void {
    if (frame.method === 'disconnected') {
      this.connected = false;
      return;
    }
    if (typeof frame.id !== 'string') return;
    const waiter = this.waiting.get(frame.id);
    if (!waiter) return;
    this.waiting.delete(frame.id);
    waiter.resolve(frame);
  }
}

/** Runs the whole scenario and tears everything down; the result says what happened to every call. */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => undefined);
  const rand = random(options.seed);
  const pickIndex = (n: number) => Math.floor(rand() * n);
  let redis: RedisProcess | undefined;
  let admin: RedisAdmin | undefined;
  const instances: Instance[] = [];
  const browsers: FakeBrowser[] = [];
  const clients: FakeClient[] = [];
  const outcomes: Outcomes = { calls: 0, answered: 0, wrongAnswers: 0, didNotAnswer: 0, namedErrors: {} };
  const faults: Record<string, number> = {};
  const paused = new Set<Instance>();
  try {
    redis = await startRedis();
    const flags = (i: number) => [
      '--redis',
      redis?.url ?? '',
      '--instance-id',
      `chaos-${i}`,
      '--heartbeat-ms',
      String(options.heartbeatMs),
      '--rate',
      '1000000',
      '--burst',
      '1000000',
    ];
    const processes = await Promise.all(Array.from({ length: options.instances }, (_, i) => spawnProxy(flags(i))));
    for (const process of processes) {
      const health = (await (await fetch(`http://127.0.0.1:${process.port}/health`)).json()) as { node_id: string };
      instances.push({ process, nodeId: health.node_id, url: process.url });
    }
    admin = await RedisAdmin.open(redis.url);
    const users = await Promise.all([0, 1, 2].map((i) => tokenFor(`chaos-user-${i}`)));
    const running = () => instances.filter((instance) => !paused.has(instance));
    const pickRunning = () => {
      const live = running();
      return live[pickIndex(live.length)] ?? (instances[0] as Instance);
    };
    for (let i = 0; i < options.browsers; i++) {
      const browser = new FakeBrowser(`chaos-browser-key-${options.seed}-${i}`, users[i % users.length] as string);
      await browser.connect(instances[i % instances.length] as Instance);
      browsers.push(browser);
    }
    for (let i = 0; i < options.clients; i++) {
      const browser = browsers[i % browsers.length] as FakeBrowser;
      const token = users[(i % browsers.length) % users.length] as string;
      clients.push(new FakeClient(`c${i}`, token, browser, outcomes, pickRunning, options.window));
    }
    // Presence is written asynchronously: every browser is listed before the first call.
    await sleep(options.heartbeatMs * 2);

    const started = Date.now();
    const until = started + options.durationMs;
    const work = Promise.all(clients.map((client) => client.run(until)));
    const count = (kind: string) => {
      faults[kind] = (faults[kind] ?? 0) + 1;
    };
    while (Date.now() < until - options.faultEveryMs) {
      await sleep(options.faultEveryMs);
      const kind = pickIndex(5);
      const target = instances[pickIndex(instances.length)] as Instance;
      if (kind === 0) {
        await admin.kill(target.nodeId, 'commands');
        count('client-kill-commands');
      } else if (kind === 1) {
        await admin.kill(target.nodeId, 'subscriber');
        count('client-kill-subscriber');
      } else if (kind === 2) {
        await admin.kill(target.nodeId);
        count('client-kill-both');
      } else if (kind === 3 && paused.size === 0 && target.process.pid !== undefined) {
        // Past the heartbeat's TTL (3 heartbeats): the others sweep it and end what they shared with it.
        paused.add(target);
        process.kill(target.process.pid, 'SIGSTOP');
        count('sigstop-past-ttl');
        const pid = target.process.pid;
        setTimeout(() => {
          resume(pid);
          paused.delete(target);
        }, options.heartbeatMs * 5).unref();
      } else {
        const browser = browsers[pickIndex(browsers.length)] as FakeBrowser;
        const leaveOldOpen = rand() < 0.5;
        await browser.redial(pickRunning(), leaveOldOpen).catch((error: unknown) => log(`redial failed: ${error}`));
        count(leaveOldOpen ? 'browser-redial-old-left-open' : 'browser-redial-old-closed');
      }
    }
    // No more faults: resume a stopped instance, let the calls in flight drain (bounded), then check the cluster.
    for (const instance of paused) if (instance.process.pid) resume(instance.process.pid);
    paused.clear();
    const drained = await Promise.race([work.then(() => true), sleep(30_000).then(() => false)]);
    for (const client of clients) client.stop();
    const lost = drained ? 0 : clients.reduce((total, client) => total + client.inFlight, 0);
    log(`calls ${outcomes.calls} in ${Date.now() - started} ms; drained: ${drained}`);

    const { vanished, extraSessions } = await settle(instances, browsers, users, options.heartbeatMs);
    return {
      seed: options.seed,
      instances: options.instances,
      browsers: options.browsers,
      clients: options.clients,
      durationMs: options.durationMs,
      calls: outcomes.calls,
      answered: outcomes.answered,
      wrongAnswers: outcomes.wrongAnswers,
      namedErrors: outcomes.namedErrors,
      didNotAnswer: outcomes.didNotAnswer,
      lost,
      vanishedBrowsers: vanished,
      extraSessions,
      faults,
    };
  } finally {
    for (const client of clients) client.close();
    for (const browser of browsers) browser.close();
    admin?.close();
    for (const instance of instances) {
      if (instance.process.pid) resume(instance.process.pid);
      await instance.process.kill();
    }
    await redis?.stop();
  }
}

/**
 * After the faults, within a bounded time: every browser is listed by every instance and answers a call through
 * each, and the instances hold one session per browser (the stale ones retired).
 */
async function settle(
  instances: Instance[],
  browsers: FakeBrowser[],
  users: string[],
  heartbeatMs: number,
): Promise<{ vanished: number; extraSessions: number }> {
  const deadline = Date.now() + Math.max(10_000, heartbeatMs * 30);
  let missing = new Set(browsers);
  while (Date.now() < deadline) {
    const stillMissing = new Set<FakeBrowser>();
    for (const browser of browsers) {
      const token = users[browsers.indexOf(browser) % users.length] as string;
      for (const instance of instances) {
        if (!(await reachable(instance, token, browser.extensionId))) stillMissing.add(browser);
      }
    }
    missing = stillMissing;
    if (missing.size === 0) break;
    await sleep(heartbeatMs);
  }
  let sessions = 0;
  for (const instance of instances) {
    const health = (await (await fetch(`http://127.0.0.1:${instance.process.port}/health`)).json()) as {
      counts: { extensions: number };
    };
    sessions += health.counts.extensions;
  }
  return { vanished: missing.size, extraSessions: Math.max(0, sessions - browsers.length) };
}

/** A fresh agent on `instance` lists the browser, connects to it, and gets its answer to one call. */
async function reachable(instance: Instance, token: string, extensionId: string): Promise<boolean> {
  const frames = new Map<string, (frame: Frame) => void>();
  const ws = await open(`${instance.url}/mcp`, (frame) => {
    if (typeof frame.id === 'string') frames.get(frame.id)?.(frame);
  }).catch(() => undefined);
  if (!ws) return false;
  const ask = (id: string, method: string, params: unknown) =>
    Promise.race([
      new Promise<Frame>((resolve) => {
        frames.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      }),
      sleep(3_000).then(() => ({ error: { code: 0, message: 'no answer in 3 s' } }) as Frame),
    ]);
  try {
    await ask('h', 'mcp_handshake', { accessToken: token });
    const listed = await ask('l', 'list_extensions', {});
    const ids = ((listed.result as { extensions?: Array<{ id: string }> } | undefined)?.extensions ?? []).map(
      ({ id }) => id,
    );
    if (!ids.includes(extensionId)) return false;
    if (!(await ask('c', 'connect', { extension_id: extensionId })).result) return false;
    const reply = await ask('p', 'getTabs', { token: 'settle' });
    return (reply.result as { echo?: { token?: string } } | undefined)?.echo?.token === 'settle';
  } finally {
    ws.terminate();
  }
}
