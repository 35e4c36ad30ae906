// The remote proxy (packages/proxy), each figure beside its floor measured in the same run:
// (a) round trip MCP client → proxy → fake extension → back, p50/p99, beside a bare WebSocket echo server in
//     its own process (the proxy adds one extension hop and its routing); bar: p50 added < 0.3 ms;
// (b) forwarded messages/s through 1 instance, and through 2 instances on one redis-server (extension on A,
//     clients on B), beside the echo server's messages/s with the same clients; bar: 20,000/s per instance;
// (c) resident memory of one proxy holding 10,000 idle authenticated extension connections; bar: < 1 GiB.
// Proxies run as `tabmcp-proxy serve` in their own processes; all traffic is on 127.0.0.1; every loop is
// bounded in count or time. Run: npx tsx bench/proxy.ts   (BENCH_PROXY_IDLE=n changes the idle count)
// `bench/proxy.ts --echo-server` is the floor's server: it echoes every frame and prints its port.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS } from '@tabmcp/proxy';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { browserToken, tokenFor } from '../test-support/proxy/fixtures';
import { type RedisProcess, spawnProxy, startRedis } from '../test-support/proxy/processes';
import { iterations } from './lib/quick';
import { type Figure, writeResult } from './lib/results';
import { formatRow, type Summary, summarize } from './lib/stats';

const LATENCY_WARMUP = iterations(1_000, 20);
const LATENCY_SAMPLES = iterations(10_000, 100);
const CLIENTS = 8;
const WINDOW = 32;
const WARMUP_MS = iterations(700, 100);
const MEASURE_MS = iterations(3_000, 300);
const IDLE_WANTED = Number(process.env.BENCH_PROXY_IDLE ?? iterations(10_000, 250));
const ADDED_P50_BAR_MS = 0.3;
const MESSAGES_BAR = 20_000;
const MEMORY_BAR_BYTES = 1024 ** 3;
const SERVE_FLAGS = [
  '--rate',
  '10000000',
  '--burst',
  '10000000',
  '--max-connections',
  '30000',
  // Every idle extension is one user's (one token): past the per-user caps.
  '--max-connections-per-user',
  '30000',
  '--max-browsers-per-user',
  '30000',
];
/**
 * Idle extensions authenticate this many at a time: all come from 127.0.0.1, and the proxy lets
 * one address hold only so many sockets still authenticating (HTTP 429 beyond), as it should.
 */
const AUTH_BATCH = DEFAULT_LIMITS.maxUnauthenticatedPerSource;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface Opened {
  ws: WebSocket;
  /** The next frame; frames are queued from the start, so none is lost between `open` and the first wait. */
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Stops queueing: the hot loops install their own listener. */
  release(): WebSocket;
}

function open(url: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const queue: Record<string, unknown>[] = [];
    const waiters: ((frame: Record<string, unknown>) => void)[] = [];
    const onMessage = (data: RawData) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      const waiter = waiters.shift();
      if (waiter) waiter(frame);
      else queue.push(frame);
    };
    ws.on('message', onMessage);
    const opened: Opened = {
      ws,
      next: (timeoutMs = 5_000) => {
        const queued = queue.shift();
        if (queued) return Promise.resolve(queued);
        return new Promise((resolveFrame, rejectFrame) => {
          const timer = setTimeout(() => rejectFrame(new Error('no frame in time')), timeoutMs);
          waiters.push((frame) => {
            clearTimeout(timer);
            resolveFrame(frame);
          });
        });
      },
      release: () => {
        ws.off('message', onMessage);
        return ws;
      },
    };
    ws.once('open', () => resolve(opened));
    ws.once('error', reject);
  });
}

/**
 * A fake extension: authenticates with the browser's twin of the user's token (the proxy refuses an
 * extension whose token lacks the browser role), then answers every forwarded request with its params.
 */
async function fakeExtension(proxyUrl: string, token: string): Promise<{ ws: WebSocket; extensionId: string }> {
  const socket = await open(`${proxyUrl}/extension`);
  const request = await socket.next();
  const accessToken = await browserToken(token);
  socket.ws.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { name: 'Bench Chrome', accessToken } }));
  const authenticated = await socket.next();
  const ws = socket.release();
  ws.on('message', (data: RawData) => {
    const frame = JSON.parse(String(data)) as { id?: unknown; method?: string; params?: unknown };
    if (frame.id !== undefined && frame.method !== undefined) {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: frame.id, result: frame.params ?? {} }));
    }
  });
  return { ws, extensionId: (authenticated.params as { extension_id: string }).extension_id };
}

/** An MCP client that has done mcp_handshake and connect (and swallowed the `status` after it). */
async function mcpClient(proxyUrl: string, token: string, extensionId: string): Promise<WebSocket> {
  const socket = await open(`${proxyUrl}/mcp`);
  const { ws } = socket;
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'mcp_handshake', params: { accessToken: token } }));
  await socket.next();
  // On another instance the extension may take a moment to appear in presence.
  for (let attempt = 0; attempt < 50; attempt++) {
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'connect', params: { extension_id: extensionId } }));
    const reply = await socket.next();
    if (reply.result) {
      await socket.next(); // status
      return socket.release();
    }
    await sleep(100);
  }
  throw new Error('connect failed');
}

const frame = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"echo","params":{"url":"https://example.com","n":${id}}}`;

/** Sequential round trips on one socket; milliseconds each. */
async function roundTrips(ws: WebSocket, count: number): Promise<number[]> {
  const samples: number[] = [];
  let id = 10;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const reply = new Promise<void>((resolve) => ws.once('message', () => resolve()));
    ws.send(frame(++id));
    await reply;
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Each socket keeps WINDOW requests in flight for the whole run; returns completed round trips per second. */
async function throughput(sockets: WebSocket[]): Promise<number> {
  let done = 0;
  let running = true;
  let nextId = 1_000;
  const listeners = sockets.map((ws) => {
    const onMessage = () => {
      done++;
      if (running) ws.send(frame(nextId++));
    };
    ws.on('message', onMessage);
    for (let i = 0; i < WINDOW; i++) ws.send(frame(nextId++));
    return () => ws.off('message', onMessage);
  });
  await sleep(WARMUP_MS);
  const startDone = done;
  const started = performance.now();
  await sleep(MEASURE_MS);
  const perSecond = ((done - startDone) / (performance.now() - started)) * 1000;
  running = false;
  await sleep(500); // let the last windows drain before anyone closes
  for (const off of listeners) off();
  return Math.round(perSecond);
}

/** The floor: a bare WebSocket echo server in its own process, as the proxy is. */
function runEchoServer(): void {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  server.on('listening', () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

async function startEcho(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--echo-server'], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('echo server did not start')), 20_000);
    child.stdout?.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve((JSON.parse(chunk.toString()) as { port: number }).port);
    });
  });
  return { url: `ws://127.0.0.1:${port}`, child };
}

function rssBytes(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib * 1024;
}

function fdLimit(): number {
  try {
    return Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  } catch {
    return 1024;
  }
}

const closeAll = (sockets: WebSocket[]) => {
  for (const ws of sockets) ws.terminate();
};

const withSamples = (summary: Summary, samples: number[], label: string) => ({
  label,
  ...summary,
  // Every fifth sample, enough for the CDF in latency.svg without bloating the JSON.
  samples: samples.filter((_, i) => i % 5 === 0).map((value) => Math.round(value * 1000) / 1000),
});

async function runBench(): Promise<void> {
  const children: { stop(): Promise<void> }[] = [];
  let redis: RedisProcess | undefined;
  const token = await tokenFor('bench-user');
  const result: Record<string, unknown> = {
    name: 'proxy',
    meaning:
      'packages/proxy: round trip MCP client → proxy → fake extension → back vs a bare WebSocket echo; forwarded messages/s (a round trip forwards 2 messages: the request and its response); RSS for idle extensions.',
    machine: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
    },
  };
  const figures: Figure[] = [];

  try {
    const echo = await startEcho();
    children.push({ stop: async () => void echo.child.kill('SIGTERM') });
    const one = await spawnProxy(SERVE_FLAGS);
    children.push(one);

    // (a) latency
    const direct = (await open(echo.url)).release();
    const extension = await fakeExtension(one.url, token);
    const client = await mcpClient(one.url, token, extension.extensionId);
    await roundTrips(direct, LATENCY_WARMUP);
    await roundTrips(client, LATENCY_WARMUP);
    const directSamples = await roundTrips(direct, LATENCY_SAMPLES);
    const proxySamples = await roundTrips(client, LATENCY_SAMPLES);
    const floor = summarize(directSamples);
    const proxied = summarize(proxySamples);
    console.log(formatRow('direct WebSocket echo (floor)', floor));
    console.log(formatRow('MCP → proxy → extension → back (1 instance)', proxied));
    const addedP50 = Math.round((proxied.p50 - floor.p50) * 1000) / 1000;
    console.log(
      `added p50 ${addedP50.toFixed(3)} ms (bar < ${ADDED_P50_BAR_MS} ms), added p99 ${(proxied.p99 - floor.p99).toFixed(3)} ms`,
    );
    figures.push({
      name: 'proxy added latency p50',
      value: addedP50,
      unit: 'ms',
      beside: { label: 'direct echo p50', value: floor.p50 },
      bar: `< ${ADDED_P50_BAR_MS} ms`,
      pass: addedP50 < ADDED_P50_BAR_MS,
      meaning: 'p50 of the proxied round trip minus p50 of a direct WebSocket echo, same client, same run',
    });
    figures.push({
      name: 'proxied round trip p99',
      value: proxied.p99,
      unit: 'ms',
      beside: { label: 'direct echo p99', value: floor.p99 },
      meaning: 'tail of the proxied round trip',
    });
    const latency: Record<string, unknown> = {
      floor: withSamples(floor, directSamples, 'direct WebSocket echo'),
      oneInstance: withSamples(proxied, proxySamples, 'via proxy, 1 instance'),
    };
    closeAll([direct, client]);

    // (b) throughput, 1 instance
    const echoSockets = await Promise.all(
      Array.from({ length: CLIENTS }, async () => (await open(echo.url)).release()),
    );
    const echoRate = await throughput(echoSockets);
    closeAll(echoSockets);
    const proxySockets = await Promise.all(
      Array.from({ length: CLIENTS }, () => mcpClient(one.url, token, extension.extensionId)),
    );
    const oneRate = await throughput(proxySockets);
    closeAll(proxySockets);
    extension.ws.terminate();
    console.log(`echo: ${echoRate} round trips/s = ${echoRate * 2} messages/s (floor)`);
    console.log(`1 instance: ${oneRate} round trips/s = ${oneRate * 2} forwarded messages/s (bar ${MESSAGES_BAR}/s)`);
    figures.push({
      name: 'forwarded messages/s, 1 instance',
      value: oneRate * 2,
      unit: 'msg/s',
      beside: { label: 'echo server', value: echoRate * 2 },
      bar: `≥ ${MESSAGES_BAR}/s`,
      pass: oneRate * 2 >= MESSAGES_BAR,
      meaning: `${CLIENTS} MCP clients × ${WINDOW} calls in flight on one extension, ${MEASURE_MS / 1000} s`,
    });
    await one.stop();

    // (b) throughput and latency, 2 instances on Redis: extension on A, clients on B
    redis = await startRedis();
    const [a, b] = await Promise.all([
      spawnProxy([...SERVE_FLAGS, '--redis', redis.url, '--instance-id', 'bench-a']),
      spawnProxy([...SERVE_FLAGS, '--redis', redis.url, '--instance-id', 'bench-b']),
    ]);
    children.push(a, b);
    const remoteExtension = await fakeExtension(a.url, token);
    const remoteClient = await mcpClient(b.url, token, remoteExtension.extensionId);
    await roundTrips(remoteClient, LATENCY_WARMUP);
    const redisSamples = await roundTrips(remoteClient, LATENCY_SAMPLES / 2);
    const viaRedis = summarize(redisSamples);
    console.log(formatRow('MCP → B → Redis → A → extension → back', viaRedis));
    latency.twoInstances = withSamples(viaRedis, redisSamples, 'via proxy, 2 instances on Redis');
    remoteClient.terminate();
    const remoteSockets = await Promise.all(
      Array.from({ length: CLIENTS }, () => mcpClient(b.url, token, remoteExtension.extensionId)),
    );
    const twoRate = await throughput(remoteSockets);
    closeAll(remoteSockets);
    remoteExtension.ws.terminate();
    console.log(
      `2 instances on Redis: ${twoRate} round trips/s = ${twoRate * 2} forwarded messages/s, each through both instances`,
    );
    figures.push({
      name: 'forwarded messages/s, 2 instances on Redis (A→B)',
      value: twoRate * 2,
      unit: 'msg/s',
      beside: { label: 'echo server', value: echoRate * 2 },
      bar: `≥ ${MESSAGES_BAR}/s per instance`,
      pass: twoRate * 2 >= MESSAGES_BAR,
      meaning: 'every message crosses both instances and Redis pub/sub; 2 proxies, Redis and the load share 2 cores',
    });
    await Promise.all([a.stop(), b.stop()]);
    await redis.stop();
    redis = undefined;

    // (c) memory for idle authenticated extensions
    const limit = fdLimit();
    const idleCount = Math.min(IDLE_WANTED, limit - 200);
    if (idleCount < IDLE_WANTED) console.log(`file-descriptor limit ${limit}: measuring ${idleCount} connections`);
    const holder = await spawnProxy(SERVE_FLAGS);
    children.push(holder);
    await sleep(300);
    const rssIdle = rssBytes(holder.pid);
    const idleSockets: WebSocket[] = [];
    const startedOpening = performance.now();
    for (let opened = 0; opened < idleCount; ) {
      const batch = Math.min(AUTH_BATCH, idleCount - opened);
      const sockets = await Promise.all(Array.from({ length: batch }, () => fakeExtension(holder.url, token)));
      for (const socket of sockets) idleSockets.push(socket.ws);
      opened += batch;
    }
    const openSeconds = (performance.now() - startedOpening) / 1000;
    await sleep(1_000);
    const health = (await (await fetch(`http://127.0.0.1:${holder.port}/health`)).json()) as {
      counts: { extensions: number };
    };
    const rssHolding = rssBytes(holder.pid);
    const perConnection = (rssHolding - rssIdle) / idleCount;
    const mib = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;
    console.log(
      `${health.counts.extensions} idle authenticated extensions (opened in ${openSeconds.toFixed(1)} s): RSS ${mib(rssHolding)} MiB ` +
        `(empty proxy ${mib(rssIdle)} MiB, ${(perConnection / 1024).toFixed(1)} KiB per connection; bar < 1024 MiB)`,
    );
    figures.push({
      name: `RSS with ${health.counts.extensions} idle extensions`,
      value: mib(rssHolding),
      unit: 'MiB',
      beside: { label: 'same proxy empty', value: mib(rssIdle) },
      bar: '< 1024 MiB for 10,000',
      pass: rssHolding < MEMORY_BAR_BYTES && health.counts.extensions >= 10_000,
      meaning: `${(perConnection / 1024).toFixed(1)} KiB per authenticated extension socket (tsx-run proxy, no build)`,
    });
    closeAll(idleSockets);
    await holder.stop();

    result.latency = latency;
    result.throughput = {
      clients: CLIENTS,
      window: WINDOW,
      measureMs: MEASURE_MS,
      echoRoundTripsPerSecond: echoRate,
      oneInstanceRoundTripsPerSecond: oneRate,
      twoInstancesRoundTripsPerSecond: twoRate,
    };
    result.memory = {
      connections: health.counts.extensions,
      fdLimit: limit,
      rssEmptyBytes: rssIdle,
      rssBytes: rssHolding,
      bytesPerConnection: Math.round(perConnection),
    };
    result.figures = figures;
    console.log(`wrote ${writeResult('proxy', result)}`);
  } finally {
    for (const child of children) await child.stop().catch(() => undefined);
    await redis?.stop();
  }
}

if (process.argv.includes('--echo-server')) runEchoServer();
else await runBench();
