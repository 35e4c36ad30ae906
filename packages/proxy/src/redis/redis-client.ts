import net from 'node:net';
import tls from 'node:tls';
import { encodeCommand, RespError, RespParser, type RespValue } from './resp-parser';

export interface RedisClientOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` for TLS. */
  url: string;
  /** Makes this a subscriber connection: pub/sub messages arrive here. */
  onMessage?: (channel: string, message: string) => void;
  /** Connected (again) and ready for commands; subscriptions restored. */
  onReady?: () => void;
  /** Link lost; it reconnects by itself until closed. */
  onDown?: (reason: string) => void;
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  maxReconnectDelayMs?: number;
}

interface Pending {
  resolve(value: RespValue): void;
  reject(error: Error): void;
  sentAt: number;
}

/**
 * A small RESP2 client: pipelined commands, pub/sub, reconnect with backoff, and no offline queue (a
 * command while the link is down fails at once, so callers answer their own clients instead of waiting).
 */
export class RedisClient {
  private socket: net.Socket | undefined;
  private readonly parser: RespParser;
  private queue: (Pending | undefined)[] = [];
  private head = 0;
  private ready = false;
  private closed = false;
  private corked = false;
  private reconnectDelay = 50;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private connectStartedAt = 0;
  private readonly subscriptions = new Set<string>();
  private readonly target: {
    host: string;
    port: number;
    tls: boolean;
    password?: string;
    username?: string;
    db?: number;
  };
  private readonly commandTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly maxReconnectDelayMs: number;
  /** When the link last became ready; undefined while down. */
  upSince: number | undefined;

  constructor(private readonly options: RedisClientOptions) {
    this.parser = new RespParser((value) => this.onValue(value));
    this.target = parseRedisUrl(options.url);
    this.commandTimeoutMs = options.commandTimeoutMs ?? 5_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
    this.maxReconnectDelayMs = options.maxReconnectDelayMs ?? 1_000;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Starts connecting; resolves at the first ready, rejects if that takes longer than `timeoutMs`. */
  connect(timeoutMs = this.connectTimeoutMs): Promise<void> {
    this.open();
    return new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (this.ready) {
          clearInterval(poll);
          resolve();
        } else if (this.closed || Date.now() - started > timeoutMs) {
          clearInterval(poll);
          reject(new Error(`Redis at ${this.target.host}:${this.target.port} not reachable within ${timeoutMs} ms`));
        }
      }, 10);
    });
  }

  command(args: readonly (string | number)[]): Promise<RespValue> {
    if (!this.ready || !this.socket) return Promise.reject(new Error('Redis is not connected'));
    return this.send(args);
  }

  /** Subscribes now if connected, and again after every reconnect. */
  async subscribe(channel: string): Promise<void> {
    this.subscriptions.add(channel);
    if (this.ready) await this.send(['SUBSCRIBE', channel]);
  }

  /** Idempotent; pending commands fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.watchdog);
    const socket = this.socket;
    this.socket = undefined;
    this.ready = false;
    this.upSince = undefined;
    this.failAll(new Error('Redis client closed'));
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          socket.destroy();
          resolve();
        }, 500);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        socket.end();
      });
    }
  }

  private open(): void {
    if (this.closed || this.socket) return;
    const { host, port } = this.target;
    const socket = this.target.tls ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
    this.socket = socket;
    this.connectStartedAt = Date.now();
    socket.setNoDelay(true);
    socket.on(this.target.tls ? 'secureConnect' : 'connect', () => void this.handshake(socket));
    socket.on('data', (chunk: Buffer) => {
      try {
        this.parser.feed(chunk);
      } catch (error) {
        socket.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on('error', () => {
      // 'close' follows and does the work; without a listener the error would crash the process.
    });
    socket.on('close', () => this.onClose(socket));
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => this.checkTimeouts(socket), 100);
    this.watchdog.unref?.();
  }

  private async handshake(socket: net.Socket): Promise<void> {
    try {
      if (this.target.password !== undefined) {
        const auth = this.target.username
          ? ['AUTH', this.target.username, this.target.password]
          : ['AUTH', this.target.password];
        await this.send(auth);
      }
      if (this.target.db !== undefined && !this.options.onMessage) await this.send(['SELECT', this.target.db]);
      for (const channel of this.subscriptions) await this.send(['SUBSCRIBE', channel]);
    } catch (error) {
      socket.destroy(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (socket !== this.socket) return;
    this.ready = true;
    this.upSince = Date.now();
    this.reconnectDelay = 50;
    this.options.onReady?.();
  }

  private send(args: readonly (string | number)[]): Promise<RespValue> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error('Redis is not connected'));
    return new Promise<RespValue>((resolve, reject) => {
      this.queue.push({ resolve, reject, sentAt: Date.now() });
      // Commands issued in one tick go out in one write.
      if (!this.corked) {
        this.corked = true;
        socket.cork();
        process.nextTick(() => {
          this.corked = false;
          socket.uncork();
        });
      }
      socket.write(encodeCommand(args));
    });
  }

  private onValue(value: RespValue): void {
    if (this.options.onMessage && Array.isArray(value) && value[0] === 'message') {
      const [, channel, message] = value;
      if (typeof channel === 'string' && typeof message === 'string') this.options.onMessage(channel, message);
      return;
    }
    const pending = this.queue[this.head];
    if (!pending) return;
    this.queue[this.head] = undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (value instanceof RespError) pending.reject(new Error(`Redis: ${value.message}`));
    else pending.resolve(value);
  }

  private checkTimeouts(socket: net.Socket): void {
    if (socket !== this.socket) return;
    const now = Date.now();
    const oldest = this.queue[this.head];
    if (oldest && now - oldest.sentAt > this.commandTimeoutMs) {
      socket.destroy(new Error('Redis command timed out'));
    } else if (!this.ready && now - this.connectStartedAt > this.connectTimeoutMs) {
      socket.destroy(new Error('Redis connect timed out'));
    }
  }

  private onClose(socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    const wasReady = this.ready;
    this.ready = false;
    this.upSince = undefined;
    this.corked = false;
    this.parser.reset();
    this.failAll(new Error('Redis connection lost'));
    if (this.closed) return;
    if (wasReady) this.options.onDown?.('connection lost');
    this.reconnectTimer = setTimeout(() => this.open(), this.reconnectDelay);
    this.reconnectTimer.unref?.();
    this.reconnectDelay = Math.min(this.maxReconnectDelayMs, this.reconnectDelay * 2);
  }

  private failAll(error: Error): void {
    const queue = this.queue;
    const head = this.head;
    this.queue = [];
    this.head = 0;
    for (let i = head; i < queue.length; i++) queue[i]?.reject(error);
  }
}

function parseRedisUrl(url: string): {
  host: string;
  port: number;
  tls: boolean;
  password?: string;
  username?: string;
  db?: number;
} {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new Error(`Not a redis URL: ${parsed.protocol}`);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined;
  if (db !== undefined && !Number.isInteger(db)) throw new Error('The redis URL path must be a database number');
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 6379,
    tls: parsed.protocol === 'rediss:',
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    db,
  };
}
