import { toProtocolError } from '@tabmcp/protocol';
import type { ChainableCommander, Redis } from 'ioredis';
import { z } from 'zod';
import type { LeveledLogger } from '../log/logger';
import { RedisLink } from '../redis/redis-link';
import { Envelope } from '../wire/envelopes';
import type { Cluster, ExtensionRecord } from './cluster';

export interface RedisClusterOptions {
  url: string;
  logger: LeveledLogger;
  /** Namespace for every key and channel, so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Heartbeat period; a node missing three in a row is dead. */
  heartbeatMs?: number;
  connectTimeoutMs?: number;
}

const Record_ = z.object({
  extensionId: z.string(),
  userId: z.string(),
  name: z.string(),
  nodeId: z.string(),
  connectedAt: z.number(),
  role: z.literal('extension'),
});

const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * Removes the fields of one user's hash whose record names the dead node (KEYS[1] the hash, KEYS[2] the node's
 * heartbeat key, ARGV[1] the node), unless the node came back meanwhile: a node that only stalled past its TTL
 * writes its heartbeat, then its records again, and no later step of a sweep may take them.
 */
const REMOVE_NODE_RECORDS = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local fields = redis.call('HGETALL', KEYS[1])
local removed = 0
for i = 1, #fields, 2 do
  local ok, record = pcall(cjson.decode, fields[i + 1])
  if ok and type(record) == 'table' and record.nodeId == ARGV[1] then
    redis.call('HDEL', KEYS[1], fields[i])
    removed = removed + 1
  end
end
return removed`;

/**
 * Drops a dead node's index and its place in the node list (KEYS: heartbeat, index, list; ARGV[1] the node) and
 * returns the users it had announced for, whose records are removed next; nothing, if the node came back.
 */
const FORGET_NODE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local users = redis.call('SMEMBERS', KEYS[2])
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return users`;

/**
 * Presence and bus on Redis.
 * - `<prefix>node:<nodeId>`: heartbeat key with a TTL; its absence means the node is dead.
 * - `<prefix>user:<userId>`: hash extensionId → record.
 * - `<prefix>nodes`: every node that joined and has not left; `<prefix>node-users:<nodeId>`: the users it announced
 *   for. At each heartbeat every live node sweeps the nodes whose heartbeat key expired: their records go
 *   within a TTL and a heartbeat of a crash, whether or not anyone lists (issue 27 P11).
 * - `<prefix>bus:<nodeId>`: pub/sub channel of each node's envelopes.
 * Redis may restart empty: each node remembers what it announced and writes it again on reconnect.
 */
export class RedisCluster implements Cluster {
  private readonly link: RedisLink;
  private readonly subscriberLink: RedisLink;
  private readonly prefix: string;
  private readonly heartbeatMs: number;
  private readonly ttlMs: number;
  private readonly logger: LeveledLogger;
  private readonly announced = new Map<string, ExtensionRecord>();
  /** Withdrawals that failed while Redis was away, retried on reconnect. */
  private readonly withdrawals = new Map<string, string>();
  private nodeId: string | undefined;
  private deliver: ((envelope: Envelope) => void) | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private leaving: Promise<void> | undefined;
  private readonly linkLostListeners: Array<() => void> = [];

  constructor(options: RedisClusterOptions) {
    this.prefix = options.keyPrefix ?? 'tabmcp:proxy:';
    this.heartbeatMs = options.heartbeatMs ?? 2_000;
    this.ttlMs = this.heartbeatMs * 3;
    this.logger = options.logger;
    const common = {
      url: options.url,
      logger: options.logger,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      maxReconnectDelayMs: MAX_RECONNECT_DELAY_MS,
    };
    // Replies from other nodes arrive on the subscriber: while it is closed they are lost.
    const onLost = () => {
      for (const listener of this.linkLostListeners) listener();
    };
    this.link = new RedisLink({ ...common, role: 'commands', onReady: () => void this.reannounce() });
    this.subscriberLink = new RedisLink({ ...common, role: 'subscriber', onLost });
    this.subscriberLink.client.on('message', (_channel: string, message: string) => this.onMessage(message));
  }

  private get commands(): Redis {
    return this.link.client;
  }

  readonly presence = {
    announce: async (record: ExtensionRecord): Promise<void> => {
      this.announced.set(record.extensionId, record);
      this.withdrawals.delete(record.extensionId);
      // All or nothing, with the node's index and its place in the node list (a sweep may have dropped this node
      // while it stalled): a record that no sweep can find would outlive a crash between the writes.
      await this.atomically((writes) =>
        writes
          .sadd(this.nodesKey(), record.nodeId)
          .sadd(this.nodeUsersKey(record.nodeId), record.userId)
          .hset(this.userKey(record.userId), record.extensionId, JSON.stringify(record)),
      );
    },
    withdraw: async (userId: string, extensionId: string): Promise<void> => {
      this.announced.delete(extensionId);
      try {
        // Ids are stable across reconnects: a newer connection of this browser on another
        // instance owns the record now, and is not withdrawn with the old one.
        const current = parseRecord((await this.commands.hget(this.userKey(userId), extensionId)) ?? '');
        if (current && current.nodeId !== this.nodeId) return;
        await this.commands.hdel(this.userKey(userId), extensionId);
      } catch (error) {
        this.withdrawals.set(extensionId, userId);
        throw error;
      }
    },
    list: async (userId: string): Promise<ExtensionRecord[]> => {
      const fields = await this.commands.hgetall(this.userKey(userId));
      const records: ExtensionRecord[] = [];
      for (const value of Object.values(fields)) {
        const record = parseRecord(value);
        if (record && record.userId === userId) records.push(record);
      }
      const live = await this.existingNodes([...new Set(records.map((record) => record.nodeId))]);
      const stale = records.filter((record) => !live.has(record.nodeId));
      if (stale.length > 0 && this.trustworthy()) {
        void this.commands
          .hdel(this.userKey(userId), ...stale.map((record) => record.extensionId))
          .catch(() => undefined);
      }
      return records.filter((record) => live.has(record.nodeId));
    },
    find: async (userId: string, extensionId: string): Promise<ExtensionRecord | undefined> => {
      const record = parseRecord(await this.commands.hget(this.userKey(userId), extensionId));
      if (!record || record.userId !== userId) return undefined;
      const live = await this.existingNodes([record.nodeId]);
      return live.has(record.nodeId) ? record : undefined;
    },
    liveNodes: async (nodeIds: readonly string[]): Promise<ReadonlySet<string> | undefined> => {
      if (!this.trustworthy()) return undefined;
      return this.existingNodes(nodeIds);
    },
  };

  readonly bus = {
    publish: async (nodeId: string, envelope: Envelope): Promise<void> => {
      const receivers = await this.commands.publish(this.channel(nodeId), JSON.stringify(envelope));
      if (receivers === 0) throw new Error(`proxy node ${nodeId} is not listening`);
    },
  };

  async join(nodeId: string, deliver: (envelope: Envelope) => void): Promise<void> {
    this.nodeId = nodeId;
    this.deliver = deliver;
    await Promise.all([this.link.connect(), this.subscriberLink.connect()]);
    // ioredis subscribes again by itself after every reconnect.
    await this.subscriberLink.client.subscribe(this.channel(nodeId));
    await this.commands.sadd(this.nodesKey(), nodeId);
    await this.heartbeat();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.heartbeatTimer.unref?.();
  }

  leave(): Promise<void> {
    this.leaving ??= (async () => {
      clearInterval(this.heartbeatTimer);
      const nodeId = this.nodeId;
      if (nodeId !== undefined && this.link.isReady) {
        const byUser = new Map<string, string[]>();
        for (const record of this.announced.values()) {
          byUser.set(record.userId, [...(byUser.get(record.userId) ?? []), record.extensionId]);
        }
        const writes: Promise<unknown>[] = [
          this.commands.del(this.nodeKey(nodeId), this.nodeUsersKey(nodeId)),
          this.commands.srem(this.nodesKey(), nodeId),
        ];
        for (const [userId, ids] of byUser) writes.push(this.commands.hdel(this.userKey(userId), ...ids));
        await Promise.allSettled(writes);
      }
      this.announced.clear();
      await Promise.all([this.link.close(), this.subscriberLink.close()]);
    })();
    return this.leaving;
  }

  onLinkLost(listener: () => void): void {
    this.linkLostListeners.push(listener);
  }

  state(): 'up' | 'down' {
    return this.link.isReady && this.subscriberLink.isReady ? 'up' : 'down';
  }

  /**
   * A missing heartbeat only means "dead" once our own link has been up long enough for every live node to
   * have reconnected and re-announced itself (after a Redis restart all keys are gone for a moment).
   */
  private trustworthy(): boolean {
    const { upSince: commandsUp } = this.link;
    const { upSince: subscriberUp } = this.subscriberLink;
    if (commandsUp === undefined || subscriberUp === undefined) return false;
    return Date.now() - Math.max(commandsUp, subscriberUp) >= this.ttlMs + 2 * MAX_RECONNECT_DELAY_MS;
  }

  private async existingNodes(nodeIds: readonly string[]): Promise<Set<string>> {
    if (nodeIds.length === 0) return new Set();
    const values = await this.commands.mget(...nodeIds.map((id) => this.nodeKey(id)));
    return new Set(nodeIds.filter((_nodeId, i) => values[i] !== null && values[i] !== undefined));
  }

  private async heartbeat(): Promise<void> {
    const nodeId = this.nodeId;
    if (nodeId === undefined || this.leaving || !this.link.isReady) return;
    try {
      const previous = await this.commands.set(
        this.nodeKey(nodeId),
        JSON.stringify({ nodeId, at: Date.now() }),
        'PX',
        this.ttlMs,
        'GET',
      );
      // Our key was gone (Redis restarted, or we stalled past the TTL and a live node swept us): others may have
      // dropped our records and our place in the node list. Without that place, the records we write next would
      // outlive a crash of ours, as no sweep would look for them.
      if (previous === null && this.announced.size > 0) await this.reannounce();
      else if (previous === null) await this.commands.sadd(this.nodesKey(), nodeId);
      await this.sweepDeadNodes();
    } catch (error) {
      this.logger.debug('redis.heartbeat_failed', { error: toProtocolError(error).message });
    }
  }

  /** Removes the records of nodes whose heartbeat expired (a crash leaves them behind). Idempotent across nodes. */
  private async sweepDeadNodes(): Promise<void> {
    if (!this.trustworthy()) return;
    const nodeIds = (await this.commands.smembers(this.nodesKey())).filter((id) => id !== this.nodeId);
    const live = await this.existingNodes(nodeIds);
    for (const dead of nodeIds.filter((id) => !live.has(id))) {
      // Forgotten first, in one step with the check that it is still dead: a record announced later lists the
      // node again, so it is swept at the next heartbeat instead of being left behind.
      const users: unknown = await this.commands.eval(
        FORGET_NODE,
        3,
        this.nodeKey(dead),
        this.nodeUsersKey(dead),
        this.nodesKey(),
        dead,
      );
      if (!Array.isArray(users)) {
        this.logger.info('cluster.stalled_node_back', { node: dead });
        continue;
      }
      let removed = 0;
      for (const userId of users.map(String)) {
        removed += Number(
          await this.commands.eval(REMOVE_NODE_RECORDS, 2, this.userKey(userId), this.nodeKey(dead), dead),
        );
      }
      this.logger.info('cluster.dead_node_swept', { node: dead, records: removed });
    }
  }

  /** Runs the writes as one MULTI/EXEC: Redis applies all of them or, if this process dies first, none. */
  private async atomically(build: (writes: ChainableCommander) => ChainableCommander): Promise<void> {
    const results = await build(this.commands.multi()).exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
    if (results === null) throw new Error('Redis discarded the transaction');
  }

  private async reannounce(): Promise<void> {
    const nodeId = this.nodeId;
    if (nodeId === undefined || this.leaving) return;
    try {
      await this.atomically((writes) => {
        writes.set(this.nodeKey(nodeId), JSON.stringify({ nodeId, at: Date.now() }), 'PX', this.ttlMs);
        writes.sadd(this.nodesKey(), nodeId);
        for (const record of this.announced.values()) {
          writes.sadd(this.nodeUsersKey(nodeId), record.userId);
          writes.hset(this.userKey(record.userId), record.extensionId, JSON.stringify(record));
        }
        for (const [extensionId, userId] of this.withdrawals) writes.hdel(this.userKey(userId), extensionId);
        return writes;
      });
      this.withdrawals.clear();
      this.logger.info('redis.reannounced', { extensions: this.announced.size });
    } catch (error) {
      this.logger.warn('redis.reannounce_failed', { error: toProtocolError(error).message });
    }
  }

  private onMessage(message: string): void {
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch {
      this.logger.warn('cluster.bad_envelope', { reason: 'not JSON' });
      return;
    }
    const envelope = Envelope.safeParse(value);
    if (!envelope.success) {
      this.logger.warn('cluster.bad_envelope', { reason: envelope.error.issues[0]?.message ?? 'invalid' });
      return;
    }
    this.deliver?.(envelope.data);
  }

  private nodeKey(nodeId: string): string {
    return `${this.prefix}node:${nodeId}`;
  }

  private nodesKey(): string {
    return `${this.prefix}nodes`;
  }

  private nodeUsersKey(nodeId: string): string {
    return `${this.prefix}node-users:${nodeId}`;
  }

  private userKey(userId: string): string {
    return `${this.prefix}user:${userId}`;
  }

  private channel(nodeId: string): string {
    return `${this.prefix}bus:${nodeId}`;
  }
}

function parseRecord(value: unknown): ExtensionRecord | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed = Record_.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
