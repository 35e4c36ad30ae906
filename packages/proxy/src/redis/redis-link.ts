import { toProtocolError, waitUntil } from '@tabmcp/protocol';
import { Redis } from 'ioredis';
import type { LeveledLogger } from '../log/logger';

export interface RedisLinkOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` for TLS. */
  url: string;
  /** Names the connection in the log: `commands` or `subscriber`. */
  role: string;
  logger: LeveledLogger;
  connectTimeoutMs: number;
  maxReconnectDelayMs: number;
  /** Connected (again) and ready; a subscriber has its channels back. */
  onReady?: () => void;
  /** The connection closed (an outage begins, however short); not called for a deliberate close. */
  onLost?: () => void;
}

/**
 * One ioredis connection configured for the proxy: it reconnects by itself and re-subscribes, but keeps no
 * offline queue and resends nothing, so a command while Redis is away fails at once and callers answer
 * their own clients instead of waiting.
 */
export class RedisLink {
  readonly client: Redis;
  /** When the link last became ready; undefined while down. */
  upSince: number | undefined;
  private readonly url: URL;

  constructor(private readonly options: RedisLinkOptions) {
    this.url = new URL(options.url);
    if (this.url.protocol !== 'redis:' && this.url.protocol !== 'rediss:') {
      throw new Error(`Not a redis URL: ${this.url.protocol} (expected redis:// or rediss://)`);
    }
    this.client = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      autoResubscribe: true,
      autoResendUnfulfilledCommands: false,
      // A command in flight when the link drops fails instead of waiting for the next connection.
      maxRetriesPerRequest: 0,
      commandTimeout: 5_000,
      connectTimeout: options.connectTimeoutMs,
      retryStrategy: (attempt) => Math.min(options.maxReconnectDelayMs, 25 * 2 ** attempt),
    });
    this.client.on('ready', () => {
      this.upSince = Date.now();
      options.logger.info('redis.up', { role: options.role });
      options.onReady?.();
    });
    this.client.on('close', () => {
      if (this.upSince === undefined) return;
      this.upSince = undefined;
      options.logger.warn('redis.down', { role: options.role, reason: 'connection lost' });
      options.onLost?.();
    });
    // Without a listener ioredis prints every failed reconnect attempt; 'close' already reports the outage.
    this.client.on('error', (error: unknown) => {
      options.logger.debug('redis.error', { role: options.role, error: toProtocolError(error).message });
    });
  }

  /**
   * Names the connection in CLIENT LIST from its next connect on (sent by ioredis as CLIENT SETNAME): which node and
   * which link. Redis refuses spaces and odd characters in a name, so they become `_`.
   */
  name(name: string): void {
    this.client.options.connectionName = name.replace(/[^A-Za-z0-9_.:/-]/g, '_').slice(0, 200);
  }

  get isReady(): boolean {
    return this.client.status === 'ready';
  }

  /** Starts connecting; resolves at the first ready, rejects if that takes longer than the connect time-out. */
  async connect(): Promise<void> {
    const ready = this.next('ready', this.options.connectTimeoutMs);
    // A refused first attempt rejects here, but the retry strategy keeps trying until `ready` times out.
    this.client.connect().catch(() => undefined);
    if (!(await ready)) {
      const { hostname, port } = this.url;
      throw new Error(`Redis at ${hostname}:${port || 6379} not reachable within ${this.options.connectTimeoutMs} ms`);
    }
  }

  /** Idempotent; pending commands fail. */
  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    this.upSince = undefined; // a deliberate close is not an outage to report
    const ended = this.next('end', 500);
    this.client.disconnect();
    await ended;
  }

  /** Whether `event` came within `timeoutMs` (ioredis also emits 'error' while retrying, so not events.once). */
  private next(event: 'ready' | 'end', timeoutMs: number): Promise<boolean> {
    return waitUntil<boolean>(
      (done) => {
        const onEvent = () => done(true);
        this.client.once(event, onEvent);
        return () => this.client.off(event, onEvent);
      },
      { timeoutMs, onTimeout: () => false },
    );
  }
}
