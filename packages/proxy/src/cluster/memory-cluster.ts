import type { Envelope } from '../wire/envelopes';
import type { AnnounceOutcome, Cluster, ExtensionRecord } from './cluster';

/**
 * In-process stand-in for Redis: several proxy cores in one process can share a hub (tests, embedding);
 * a standalone proxy gets a private one. Delivery is asynchronous and in order, as on a real bus.
 */
export class MemoryClusterHub {
  private readonly nodes = new Map<string, (envelope: Envelope) => void>();
  private readonly users = new Map<string, Map<string, ExtensionRecord>>();
  /** The same order as Redis's epochs: a later announcement always has a larger one. */
  private lastEpoch = 0;

  node(): Cluster {
    return new MemoryClusterNode(this);
  }

  /** Simulates a crashed node: it stops receiving and looks dead, but its records stay behind. */
  crash(nodeId: string): void {
    this.nodes.delete(nodeId);
  }

  /** @internal */
  register(nodeId: string, deliver: (envelope: Envelope) => void): void {
    this.nodes.set(nodeId, deliver);
  }

  /** @internal */
  unregister(nodeId: string): void {
    this.nodes.delete(nodeId);
    for (const records of this.users.values()) {
      for (const [extensionId, record] of records) if (record.nodeId === nodeId) records.delete(extensionId);
    }
  }

  /** @internal */
  isAlive(nodeId: string): boolean {
    return this.nodes.has(nodeId);
  }

  /** @internal */
  records(userId: string, create: boolean): Map<string, ExtensionRecord> | undefined {
    let records = this.users.get(userId);
    if (!records && create) {
      records = new Map();
      this.users.set(userId, records);
    }
    return records;
  }

  /** @internal */
  nextEpoch(): number {
    this.lastEpoch += 1;
    return this.lastEpoch;
  }

  /** @internal */
  deliver(nodeId: string, envelope: Envelope): boolean {
    const target = this.nodes.get(nodeId);
    if (!target) return false;
    queueMicrotask(() => target(envelope));
    return true;
  }
}

class MemoryClusterNode implements Cluster {
  private nodeId: string | undefined;

  constructor(private readonly hub: MemoryClusterHub) {}

  readonly presence = {
    // One process, no await between the check and the write: each of these is atomic, as the Redis scripts are.
    announce: async (record: ExtensionRecord): Promise<AnnounceOutcome> => {
      const records = this.hub.records(record.userId, true);
      const previous = records?.get(record.extensionId);
      records?.set(record.extensionId, { ...record, epoch: this.hub.nextEpoch() });
      return previous && previous.session !== record.session ? { replaced: { ...previous } } : {};
    },
    withdraw: async (userId: string, extensionId: string, session: string) => {
      const records = this.hub.records(userId, false);
      if (records?.get(extensionId)?.session === session) records.delete(extensionId);
    },
    list: async (userId: string) => {
      const records = this.hub.records(userId, false);
      if (!records) return [];
      return [...records.values()].filter((record) => this.hub.isAlive(record.nodeId)).map((record) => ({ ...record }));
    },
    find: async (userId: string, extensionId: string) => {
      const record = this.hub.records(userId, false)?.get(extensionId);
      return record && this.hub.isAlive(record.nodeId) ? { ...record } : undefined;
    },
    liveNodes: async (nodeIds: readonly string[]) => new Set(nodeIds.filter((id) => this.hub.isAlive(id))),
  };

  readonly bus = {
    publish: async (nodeId: string, envelope: Envelope) => {
      if (!this.hub.deliver(nodeId, envelope)) throw new Error(`proxy node ${nodeId} is unreachable`);
    },
  };

  async join(nodeId: string, deliver: (envelope: Envelope) => void): Promise<void> {
    this.nodeId = nodeId;
    this.hub.register(nodeId, deliver);
  }

  async leave(): Promise<void> {
    if (this.nodeId === undefined) return;
    this.hub.unregister(this.nodeId);
    this.nodeId = undefined;
  }

  state(): 'up' | 'down' {
    return 'up';
  }

  /** In one process the link never closes, never comes back, and nothing written is ever lost. */
  onLinkLost(): void {}

  onLinkReady(): void {}

  onSuperseded(): void {}
}
