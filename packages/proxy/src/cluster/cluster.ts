import type { Envelope } from '../wire/envelopes';

/** One authenticated extension as every instance sees it. */
export interface ExtensionRecord {
  extensionId: string;
  userId: string;
  name: string;
  /** The proxy node whose socket holds the extension. */
  nodeId: string;
  connectedAt: number;
  /**
   * The role of the token the browser registered with: always `extension`. Records without it (written by an
   * older instance, which let role-less tokens register) are never listed or routed to.
   */
  role: 'extension';
  /**
   * The browser session on `nodeId` that owns the record, random per authenticated socket. Browser ids are stable
   * across reconnects, so every delete and every re-announce is conditional on it: a late write of an old
   * session never touches the record of the newer one (issue 39 Q1).
   */
  session: string;
  /**
   * Order of the announcements of this browser id, given by the store: a session announced later always has a
   * larger one, whichever instance announced it; 0 until the store has given one.
   */
  epoch: number;
}

/** What an announcement did to the record that was there. */
export interface AnnounceOutcome {
  /** The record of another session that this one replaced: that session is retired on its node. */
  replaced?: ExtensionRecord;
}

/** Which extensions of which user live on which node. */
export interface PresenceStore {
  /** A session that just authenticated: it becomes the record whatever was there (it is the newest). */
  announce(record: ExtensionRecord): Promise<AnnounceOutcome>;
  /** Removes the record only while `session` still owns it. */
  withdraw(userId: string, extensionId: string, session: string): Promise<void>;
  /** The user's extensions on nodes that are alive. */
  list(userId: string): Promise<ExtensionRecord[]>;
  find(userId: string, extensionId: string): Promise<ExtensionRecord | undefined>;
  /**
   * Which of these nodes are alive, or `undefined` when no trustworthy verdict can be given right now
   * (store unreachable, or just reconnected and others may not have re-announced yet).
   */
  liveNodes(nodeIds: readonly string[]): Promise<ReadonlySet<string> | undefined>;
}

/** Point-to-point delivery of envelopes between nodes. */
export interface Bus {
  /** Resolves once handed over; rejects when the node cannot be reached (then the caller fails the call). */
  publish(nodeId: string, envelope: Envelope): Promise<void>;
}

/**
 * Presence plus bus for one node. The single-instance proxy uses the in-memory one; several instances share
 * a Redis one. The core only ever talks to this interface.
 */
export interface Cluster {
  readonly presence: PresenceStore;
  readonly bus: Bus;
  /** Starts heartbeats and delivery of this node's envelopes. */
  join(nodeId: string, deliver: (envelope: Envelope) => void): Promise<void>;
  /** Graceful exit: stops heartbeats, withdraws the node's own records. Idempotent. */
  leave(): Promise<void>;
  /** For /health. */
  state(): 'up' | 'down';
  /**
   * Calls `listener` the moment a connection to the other nodes closes, however briefly: a reply
   * published while it was closed is lost, so calls waiting on another node are answered then.
   */
  onLinkLost(listener: () => void): void;
  /** Calls `listener` each time a connection to the other nodes is ready again: what failed meanwhile is retried. */
  onLinkReady(listener: () => void): void;
  /**
   * Calls `listener` when a record this node announced turns out to belong to a newer session elsewhere (found when
   * the node writes its records again): the local session is stale and is retired.
   */
  onSuperseded(listener: (record: ExtensionRecord) => void): void;
}
