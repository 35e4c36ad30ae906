import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { Duplex } from 'node:stream';
import { toProtocolError, waitUntil } from '@tabmcp/protocol';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  type AuthOptions,
  createTokenVerifier,
  type Identity,
  roleMismatch,
  type TokenVerifier,
} from '../auth/token-verifier';
import type { Cluster } from '../cluster/cluster';
import { MemoryClusterHub } from '../cluster/memory-cluster';
import { RedisCluster } from '../cluster/redis-cluster';
import { type Limits, resolveLimits } from '../core/limits';
import { CloseCode, type Peer } from '../core/peer';
import { ProxyCore, type ProxyStats } from '../core/proxy-core';
import type { Session } from '../core/session';
import { createJsonLogger, type LeveledLogger, type LogLevel } from '../log/logger';
import { rejectUpgrade, tokenFromUpgrade } from './upgrade';

export interface ProxyOptions {
  /** Default 127.0.0.1: exposing the proxy is a deliberate choice (`0.0.0.0` behind TLS or a TLS proxy). */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** How tokens are checked: key material, or a verifier of your own. */
  auth: AuthOptions | TokenVerifier;
  /** PEM certificate chain and key: serve wss:// and https://. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  limits?: Partial<Limits>;
  /** Share presence and routing with other instances through this Redis. */
  redisUrl?: string;
  /** Or any other cluster implementation (e.g. a shared {@link MemoryClusterHub} node in tests). */
  cluster?: Cluster;
  /** Name in logs and /health; default `<hostname>-<pid>`. */
  instanceId?: string;
  /** Cluster heartbeat (default 2 s): a dead instance is noticed within about 3 heartbeats. */
  heartbeatMs?: number;
  logger?: LeveledLogger;
  logLevel?: LogLevel;
  /** Listen on a non-loopback host without TLS (tokens would cross the network in clear). Default false. */
  allowInsecureHost?: boolean;
}

export interface ProxyServer {
  readonly host: string;
  readonly port: number;
  /** `ws://host:port` (or `wss://`); the endpoints are `/extension` and `/mcp`. */
  readonly url: string;
  readonly instanceId: string;
  /** Unique per process lifetime; what other instances route to. */
  readonly nodeId: string;
  stats(): ProxyStats;
  /** Closes every socket (1001), leaves the cluster, stops listening. Idempotent. */
  close(): Promise<void>;
}

interface SocketState {
  session: Session;
  alive: boolean;
  /** The budget it counts against (sourceKey). */
  source: string;
  /** Closes the socket (the oldest anonymous one makes room for a newcomer when their budget is full). */
  evict(): void;
}

/**
 * Sockets that have not authenticated yet, by remote address (an IPv6 address by its /64, what one
 * host is usually given): their own small budget. When it is full, the oldest makes room for the
 * newcomer (issue 26: ~60 source addresses filled it and every real browser and agent got 503, while
 * the anonymous sockets each had 10 s left). tabmcp's own clients present their token at the upgrade
 * and never count here.
 */
class UnauthenticatedSockets {
  readonly #bySource = new Map<string, Set<SocketState>>();
  /** Insertion order is age order: the first is the oldest. */
  readonly #all = new Set<SocketState>();
  #count = 0;

  add(source: string, state: SocketState): void {
    let set = this.#bySource.get(source);
    if (!set) {
      set = new Set();
      this.#bySource.set(source, set);
    }
    set.add(state);
    this.#all.add(state);
    this.#count++;
  }

  remove(source: string, state: SocketState): void {
    const set = this.#bySource.get(source);
    if (!set?.delete(state)) return;
    this.#all.delete(state);
    this.#count--;
    if (set.size === 0) this.#bySource.delete(source);
  }

  /** Drops sockets that have authenticated since (sessions do not tell the adapter; this keeps cores socket-free). */
  prune(): void {
    for (const [source, set] of this.#bySource) {
      for (const state of set) if (state.session.isAuthenticated) this.remove(source, state);
    }
  }

  get count(): number {
    return this.#count;
  }

  oldest(): SocketState | undefined {
    return this.#all.values().next().value;
  }

  from(source: string): number {
    return this.#bySource.get(source)?.size ?? 0;
  }
}

const CLOSE_GRACE_MS = 1_000;

/** Starts the HTTP(S) server with `/extension`, `/mcp` (WebSocket) and `GET /health`. */
export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  const host = options.host ?? '127.0.0.1';
  if (!options.tls && !options.allowInsecureHost && !isLoopbackHost(host)) {
    throw new Error(
      `Refusing to listen on ${host} without TLS: tokens would cross the network in clear. Give --tls-cert and ` +
        '--tls-key, or pass --allow-insecure-host when a TLS-terminating proxy sits in front.',
    );
  }
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}`;
  const nodeId = `${instanceId}/${randomUUID().slice(0, 8)}`;
  const logger =
    options.logger ?? createJsonLogger({ level: options.logLevel ?? 'info', base: { instance: instanceId } });
  const limits = resolveLimits(options.limits);
  const verifier = 'verify' in options.auth ? options.auth : await createTokenVerifier(options.auth);
  const heartbeatMs = options.heartbeatMs ?? 2_000;
  const clusterKind = options.cluster ? 'custom' : options.redisUrl ? 'redis' : 'memory';
  const cluster =
    options.cluster ??
    (options.redisUrl
      ? new RedisCluster({ url: options.redisUrl, logger, heartbeatMs, connectTimeoutMs: limits.connectTimeoutMs })
      : new MemoryClusterHub().node());
  const core = new ProxyCore({ nodeId, verifier, cluster, limits, logger, livenessIntervalMs: heartbeatMs });
  try {
    await core.start();
  } catch (error) {
    await core.close();
    throw error;
  }

  const sockets = new Map<WebSocket, SocketState>();
  const unauthenticated = new UnauthenticatedSockets();
  let upgrading = 0;
  let shuttingDown = false;
  const startedAt = Date.now();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    perMessageDeflate: false,
    clientTracking: false,
  });

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (req.method === 'GET' && path === '/health') {
      const redis = clusterKind === 'memory' ? undefined : core.clusterState();
      const body = {
        status: shuttingDown ? 'closing' : redis === 'down' ? 'degraded' : 'ok',
        instance_id: instanceId,
        node_id: nodeId,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        cluster: clusterKind,
        ...(redis ? { cluster_link: redis } : {}),
        counts: { sockets: sockets.size, ...core.stats() },
      };
      writeJson(res, 200, body);
      return;
    }
    writeJson(res, 404, { error: 'Not found: the endpoints are /extension, /mcp (WebSocket) and GET /health' });
  };

  // Slowloris: a request (an upgrade included) whose headers have not all arrived within the handshake
  // deadline is dropped, checked every second (Node's defaults: 60 s, checked every 30 s).
  const timeouts = {
    headersTimeout: limits.handshakeTimeoutMs,
    requestTimeout: limits.handshakeTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, limits.handshakeTimeoutMs),
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key, ...timeouts }, onRequest)
    : http.createServer(timeouts, onRequest);
  server.on('clientError', (_error, socket) => socket.destroy());

  const attachSocket = (ws: WebSocket, role: 'extension' | 'mcp', identity: Identity | undefined, source: string) => {
    const peer: Peer = {
      send(frame) {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > limits.maxBufferedBytes) {
          // Said in a close frame, queued behind what it has not read: a bare 1006 told it nothing (issue 27 P9).
          logger.warn('socket.too_slow', { role, buffered: ws.bufferedAmount });
          if (ws.readyState === WebSocket.OPEN) ws.close(CloseCode.TryAgainLater, TOO_SLOW);
          setTimeout(() => ws.terminate(), SLOW_CLOSE_GRACE_MS).unref();
          return;
        }
        ws.send(frame);
      },
      close(code, reason) {
        if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
          ws.close(code, closeReason(reason));
      },
    };
    const session = role === 'extension' ? core.acceptExtension(peer, identity) : core.acceptMcpClient(peer, identity);
    const state: SocketState = {
      session,
      alive: true,
      source,
      evict: () => ws.close(1013, 'Too many connections still authenticating: authenticate sooner, or at the upgrade'),
    };
    sockets.set(ws, state);
    if (!session.isAuthenticated) unauthenticated.add(source, state);
    ws.on('message', (data: RawData) => {
      state.alive = true;
      // Checked before anything parses the frame: an anonymous socket gets a few KB, not maxMessageBytes.
      if (!session.isAuthenticated && rawByteLength(data) > limits.maxUnauthenticatedMessageBytes) {
        logger.warn('socket.oversize_before_auth', { role, bytes: rawByteLength(data) });
        ws.close(1009, `Frame over ${limits.maxUnauthenticatedMessageBytes} bytes before authentication`);
        return;
      }
      try {
        session.receive(rawToText(data));
      } catch (error) {
        // A bug must cost one message, never the process.
        logger.error('session.receive_failed', { role, error: toProtocolError(error).message });
      }
    });
    ws.on('pong', () => {
      state.alive = true;
    });
    ws.on('error', (error) => logger.debug('socket.error', { role, error: error.message }));
    ws.on('close', (code) => {
      sockets.delete(ws);
      unauthenticated.remove(source, state);
      session.closed();
      logger.debug('socket.closed', { role, code });
    });
  };

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://proxy');
    const role = url.pathname === '/extension' ? 'extension' : url.pathname === '/mcp' ? 'mcp' : undefined;
    if (!role) return rejectUpgrade(socket, 404, 'Unknown endpoint: use /extension or /mcp');
    if (shuttingDown) return rejectUpgrade(socket, 503, 'Proxy shutting down');
    const source = sourceKey(req.socket.remoteAddress);
    const token = tokenFromUpgrade(req, url);
    unauthenticated.prune();
    const authenticatedSockets = sockets.size - unauthenticated.count;
    if (authenticatedSockets + upgrading >= limits.maxConnections) {
      return rejectUpgrade(socket, 503, 'Too many connections');
    }
    if (token === undefined) {
      if (unauthenticated.from(source) >= limits.maxUnauthenticatedPerSource) {
        logger.warn('source.too_many_unauthenticated', { role });
        return rejectUpgrade(socket, 429, 'Too many connections still authenticating from this address');
      }
      const oldest = unauthenticated.count >= limits.maxUnauthenticated ? unauthenticated.oldest() : undefined;
      if (oldest) {
        logger.warn('socket.unauthenticated_evicted', { role });
        unauthenticated.remove(oldest.source, oldest);
        oldest.evict();
      }
    }
    const accept = (identity?: Identity) => {
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (shuttingDown) ws.close(1001, 'Proxy shutting down');
        else attachSocket(ws, role, identity, source);
      });
    };
    if (token === undefined) return accept();
    // A token offered at upgrade is checked before any WebSocket exists: a bad one never gets a socket.
    upgrading++;
    verifier.verify(token).then(
      (identity) => {
        upgrading--;
        if (socket.destroyed) return;
        const wrongRole = roleMismatch(identity, role === 'extension' ? 'extension' : 'client');
        if (wrongRole) {
          logger.warn('auth.failed', { role, reason: wrongRole, stage: 'upgrade' });
          return rejectUpgrade(socket, 401, `Authentication failed: ${wrongRole}`);
        }
        // One user's token may not take every slot of maxConnections (issue 39): its own cap, said by name.
        const overCap = core.userSlotRefusal(identity.userId, role === 'extension' ? 'extension' : 'client');
        if (overCap) {
          logger.warn('user.cap_reached', { role, user_id: identity.userId, stage: 'upgrade' });
          return rejectUpgrade(socket, 429, overCap);
        }
        accept(identity);
      },
      (error: unknown) => {
        upgrading--;
        const reason = error instanceof Error ? error.message : 'Invalid token';
        logger.warn('auth.failed', { role, reason, stage: 'upgrade' });
        rejectUpgrade(socket, 401, `Authentication failed: ${reason}`);
      },
    );
  });

  const pingTimer = setInterval(() => {
    for (const [ws, state] of sockets) {
      if (!state.alive) {
        logger.info('socket.dead_peer', {});
        ws.terminate();
        continue;
      }
      state.alive = false;
      ws.ping();
    }
  }, limits.pingIntervalMs);
  pingTimer.unref?.();

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    clearInterval(pingTimer);
    await core.close();
    throw error;
  }
  server.on('error', (error) => logger.error('server.error', { error: error.message }));
  const port = (server.address() as AddressInfo).port;
  const scheme = options.tls ? 'wss' : 'ws';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  logger.info('proxy.listening', { host, port, node: nodeId, cluster: clusterKind, tls: Boolean(options.tls) });

  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    url: `${scheme}://${urlHost}:${port}`,
    instanceId,
    nodeId,
    stats: () => core.stats(),
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        clearInterval(pingTimer);
        await core.close();
        await waitFor(() => sockets.size === 0, CLOSE_GRACE_MS);
        for (const ws of sockets.keys()) ws.terminate();
        wss.close();
        server.closeAllConnections?.();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        logger.info('proxy.closed', {});
      })();
      return closing;
    },
  };
}

function writeJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function rawByteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, chunk) => total + chunk.byteLength, 0);
  return data.byteLength;
}

/** Who a budget counts: an IPv4 address, or an IPv6 address's /64 (one host, or one user's network). */
function sourceKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = [...head.split(':').filter(Boolean)];
  if (groups.length < 4) {
    const tailGroups = tail.split(':').filter(Boolean);
    const missing = 8 - groups.length - tailGroups.length;
    groups.push(...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups);
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts a plain ws:// listener may use without a flag. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::ffff:127.0.0.1';
}

function rawToText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** A close reason may be at most 123 bytes (RFC 6455 5.5.1). */
/** Why a client that does not read is cut, and what to do (≤ 123 bytes). */
const TOO_SLOW = 'Too slow: too much unread (backpressure); read faster or ask for less, then reconnect';
/** How long a cut slow socket has to take its close frame before it is dropped. */
const SLOW_CLOSE_GRACE_MS = 10_000;

function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= 123) return reason;
  let cut = reason.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** Sockets close on their own schedule, with no event for "all of them": look every 10 ms, give up after `timeoutMs`. */
function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  if (condition()) return Promise.resolve();
  return waitUntil<void>(
    (done) => {
      const poll = setInterval(() => {
        if (condition()) done();
      }, 10);
      return () => clearInterval(poll);
    },
    { timeoutMs, onTimeout: () => undefined },
  );
}
