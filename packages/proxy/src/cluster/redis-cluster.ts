import { toProtocolError } from '@tabmcp/protocol';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { LeveledLogger } from '../log/logger';
import { RedisLink } from '../redis/redis-link';
import { Envelope } from '../wire/envelopes';
import type { AnnounceOutcome, Cluster, ExtensionRecord } from './cluster';
import { ANNOUNCE, FORGET_NODE, REMOVE_NODE_RECORDS, REMOVE_STALE, WITHDRAW } from './presence-scripts';

type WriteResult =
  | { kind: 'ok'; replaced: ExtensionRecord | undefined }
  | { kind: 'superseded'; current: ExtensionRecord | undefined };

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
  // An older instance wrote neither: its record is listed, and any newer session replaces it.
  session: z.string().default(''),
  epoch: z.number().default(0),
});

const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * Presence and bus on Redis.
 * - `<prefix>node:<nodeId>`: heartbeat key with a TTL; its absence means the node is dead.
 * - `<prefix>user:<userId>`: hash extensionId → record, owned by one browser session (`session`, `epoch`).
 *   Every write to it is a script of presence-scripts.ts that checks the owner in the same step.
 * - `<prefix>nodes`: every node that joined and has not left; `<prefix>node-users:<nodeId>`: the users it announced
 *   for. At each heartbeat every live node sweeps the nodes whose heartbeat key expired: their records go
 *   within a TTL and a heartbeat of a crash, whether or not anyone lists (issue 27 P11).
 * - `<prefix>bus:<nodeId>`: pub/sub channel of each node's envelopes.
 * Redis may restart empty: each node remembers what it announced and writes it again on reconnect, conditionally.
 */
export class RedisCluster implements Cluster {
  private readonly link: RedisLink;
  private readonly subscriberLink: RedisLink;
  private readonly prefix: string;
  private readonly heartbeatMs: number;
  private readonly ttlMs: number;
  private readonly logger: LeveledLogger;
  /** This node's records by browser id, with the epoch Redis gave them (0 while not written yet). */
  private readonly announced = new Map<string, ExtensionRecord>();
  /** Withdrawals that failed while Redis was away, by browser id: retried on reconnect, owner-checked. */
  private readonly withdrawals = new Map<string, { userId: string; session: string }>();
  private nodeId: string | undefined;
  private deliver: ((envelope: Envelope) => void) | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private leaving: Promise<void> | undefined;
  private reannouncing: Promise<void> | undefined;
  private reannounceAgain = false;
  private readonly linkLostListeners: Array<() => void> = [];
  private readonly linkReadyListeners: Array<() => void> = [];
  private readonly supersededListeners: Array<(record: ExtensionRecord) => void> = [];

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
    // Either link back: write our records again (a retirement sent to us meanwhile may be lost; the conditional
    // write finds it out), then let the core retry what failed.
    const onReady = () => {
      void this.reannounce().finally(() => {
        for (const listener of this.linkReadyListeners) listener();
      });
    };
    this.link = new RedisLink({ ...common, role: 'commands', onReady });
    this.subscriberLink = new RedisLink({ ...common, role: 'subscriber', onLost, onReady });
    this.subscriberLink.client.on('message', (_channel: string, message: string) => this.onMessage(message));
  }

  private get commands(): Redis {
    return this.link.client;
  }

  readonly presence = {
    announce: async (record: ExtensionRecord): Promise<AnnounceOutcome> => {
      const mine = { ...record, epoch: 0 };
      this.announced.set(record.extensionId, mine);
      this.withdrawals.delete(record.extensionId);
      const result = await this.writeRecord(mine, 'new');
      return result.kind === 'ok' ? { replaced: result.replaced } : {};
    },
    withdraw: async (userId: string, extensionId: string, session: string): Promise<void> => {
      if (this.announced.get(extensionId)?.session === session) this.announced.delete(extensionId);
      try {
        await this.commands.eval(WITHDRAW, 1, this.userKey(userId), extensionId, session);
      } catch (error) {
        this.withdrawals.set(extensionId, { userId, session });
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
        const keys = [this.userKey(userId), ...stale.map((record) => this.nodeKey(record.nodeId))];
        const owners = stale.flatMap((record) => [record.extensionId, record.session]);
        void this.commands.eval(REMOVE_STALE, keys.length, ...keys, ...owners).catch(() => undefined);
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
    // Named, so an operator (and the chaos test) can tell the nodes' connections apart in CLIENT LIST.
    this.link.name(`tabmcp-proxy:commands:${nodeId}`);
    this.subscriberLink.name(`tabmcp-proxy:subscriber:${nodeId}`);
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
          byUser.set(record.userId, [...(byUser.get(record.userId) ?? []), record.extensionId, record.session]);
        }
        const writes: Promise<unknown>[] = [
          this.commands.del(this.nodeKey(nodeId), this.nodeUsersKey(nodeId)),
          this.commands.srem(this.nodesKey(), nodeId),
        ];
        for (const [userId, owners] of byUser)
          writes.push(this.commands.eval(WITHDRAW, 1, this.userKey(userId), ...owners));
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

  onLinkReady(listener: () => void): void {
    this.linkReadyListeners.push(listener);
  }

  onSuperseded(listener: (record: ExtensionRecord) => void): void {
    this.supersededListeners.push(listener);
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

  /** One ANNOUNCE: the record with its node's index, owner-checked (presence-scripts.ts). */
  private async writeRecord(record: ExtensionRecord, mode: 'new' | 'again'): Promise<WriteResult> {
    const { epoch: _unwritten, ...fields } = record;
    const reply: unknown = await this.commands.eval(
      ANNOUNCE,
      3,
      this.userKey(record.userId),
      this.nodesKey(),
      this.nodeUsersKey(record.nodeId),
      record.extensionId,
      JSON.stringify(fields),
      mode,
      record.session,
      String(record.epoch),
      record.nodeId,
      record.userId,
    );
    const [kind, first, second] = Array.isArray(reply) ? reply.map(String) : [];
    if (kind === 'superseded') {
      if (this.announced.get(record.extensionId) === record) this.announced.delete(record.extensionId);
      return { kind, current: parseRecord(first) };
    }
    if (kind !== 'ok') throw new Error('Redis answered the presence write with something unexpected');
    record.epoch = Number(first);
    return { kind, replaced: parseRecord(second) };
  }

  /**
   * Writes every record this node holds again (Redis restarted, a link came back, or a sweep took them), each only
   * where no newer session of the browser owns it, and the withdrawals that failed meanwhile, each only where the
   * withdrawn session still owns it. A record that lost tells the core to retire its stale session.
   */
  private reannounce(): Promise<void> {
    // One at a time; a request while one runs runs once more after it (a link may have come back meanwhile).
    if (this.reannouncing) {
      this.reannounceAgain = true;
      return this.reannouncing;
    }
    this.reannouncing = (async () => {
      do {
        this.reannounceAgain = false;
        await this.writeAllAgain();
      } while (this.reannounceAgain);
    })().finally(() => {
      this.reannouncing = undefined;
    });
    return this.reannouncing;
  }

  private async writeAllAgain(): Promise<void> {
    const nodeId = this.nodeId;
    if (nodeId === undefined || this.leaving || !this.link.isReady) return;
    try {
      await this.commands.set(this.nodeKey(nodeId), JSON.stringify({ nodeId, at: Date.now() }), 'PX', this.ttlMs);
      await this.commands.sadd(this.nodesKey(), nodeId);
      const results = await Promise.all(
        [...this.announced.values()].map(async (record) => ({
          record,
          result: await this.writeRecord(record, 'again'),
        })),
      );
      for (const [extensionId, { userId, session }] of [...this.withdrawals]) {
        await this.commands.eval(WITHDRAW, 1, this.userKey(userId), extensionId, session);
        this.withdrawals.delete(extensionId);
      }
      let superseded = 0;
      for (const { record, result } of results) {
        if (result.kind !== 'superseded') continue;
        superseded++;
        for (const listener of this.supersededListeners) listener(record);
      }
      this.logger.info('redis.reannounced', { extensions: this.announced.size, superseded });
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
