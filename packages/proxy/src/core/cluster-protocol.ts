import { ErrorCode, PendingRequests, ProtocolError, toProtocolError } from '@tabmcp/protocol';
import type { Cluster, ExtensionRecord } from '../cluster/cluster';
import type { LeveledLogger } from '../log/logger';
import type { AttachEnvelope, CallsCheckEnvelope, ClientsCheckEnvelope, Envelope } from '../wire/envelopes';
import type { ExtensionSession } from './extension-session';
import type { McpSession } from './mcp-session';
import { OrderedOutbox } from './ordered-outbox';
import { notificationFrame } from './outgoing';
import { ReplyPathChecks, type ReplyPathRoutes } from './reply-path';
import type { AttachOutcome, AttachRequest, CallOutcome } from './session';
import { withTimeout } from './with-timeout';

export const NOT_FOUND = 'Extension not found or not accessible';

/** Clients check on their browsers' nodes every this many ticks (and after each outage). */
const CLIENT_CHECK_EVERY = 5;
/** A retirement that could not be published is tried again this long: past it, the stale socket's pings ended it. */
const RETIRE_RETRY_MS = 60_000;
const MAX_RETIREMENTS = 10_000;

/** What the cluster protocol reads and changes in the local routing table (ProxyCore). */
export interface LocalRoutes extends ReplyPathRoutes {
  /** Closes the local session of this browser if it is still the named one: a newer one registered elsewhere. */
  retireLocal(userId: string, extensionId: string, session: string): void;
  /** The authenticated extension whose socket is on this node. */
  extension(extensionId: string): ExtensionSession | undefined;
  /** The local extension a connection is attached to (the client may be on any node). */
  attachedExtension(connectionId: string): ExtensionSession | undefined;
  /** The local MCP session that owns a connection (the extension may be on any node). */
  connection(connectionId: string): McpSession | undefined;
  /** Attaches a client of `fromNode` to a local extension; throws NOT_FOUND when it may not. */
  attachLocal(extension: ExtensionSession | undefined, request: AttachRequest, fromNode: string): AttachOutcome;
  /** Only when the connection's client is on `fromNode`: a node cannot detach another node's clients. */
  detachLocal(connectionId: string, fromNode?: string): void;
  /** Nodes that hold the other end of one of our connections. */
  remoteNodes(): Set<string>;
}

export interface ClusterProtocolOptions {
  nodeId: string;
  cluster: Cluster;
  logger: LeveledLogger;
  /** Deadline of an attach answered by another node and of presence look-ups. */
  connectTimeoutMs: number;
  /** How often `tick` runs (liveness of nodes and of the reply path). */
  intervalMs: number;
  routes: LocalRoutes;
}

/**
 * The envelopes this node exchanges with the other proxy nodes over the cluster bus: outgoing ones for
 * connections that span two nodes, incoming ones checked against the local routing table before use.
 */
export class ClusterProtocol {
  private readonly nodeId: string;
  private readonly cluster: Cluster;
  private readonly logger: LeveledLogger;
  private readonly routes: LocalRoutes;
  private readonly connectTimeoutMs: number;
  /** Connects that wait for another node to attach the client to its extension, grouped by that node. */
  private readonly pendingAttaches = new PendingRequests<AttachOutcome>();
  private livenessRunning = false;
  private leaving = false;
  /** What the browsers here send clients on other nodes, in order per node; held while it cannot be published. */
  private readonly toClients: OrderedOutbox;
  private readonly checks: ReplyPathChecks;
  /** Retirements whose publish failed, by node, browser and session: tried again at each tick. */
  private readonly retirements = new Map<string, { nodeId: string; record: ExtensionRecord; since: number }>();
  private ticks = 0;

  constructor(options: ClusterProtocolOptions) {
    this.nodeId = options.nodeId;
    this.cluster = options.cluster;
    this.logger = options.logger;
    this.routes = options.routes;
    this.connectTimeoutMs = options.connectTimeoutMs;
    const publish = (nodeId: string, envelope: Envelope) => this.publish(nodeId, envelope);
    this.toClients = new OrderedOutbox(publish);
    this.checks = new ReplyPathChecks({
      nodeId: this.nodeId,
      intervalMs: options.intervalMs,
      publish,
      isAlive: (nodeId) =>
        withTimeout(this.cluster.presence.liveNodes([nodeId]), this.connectTimeoutMs, 'Liveness check').then((live) =>
          live?.has(nodeId),
        ),
      routes: this.routes,
      logger: this.logger,
    });
  }

  join(): Promise<void> {
    // A link back: what could not be sent meanwhile goes now, and the clients a lost detach left behind are found.
    this.cluster.onLinkReady(() => {
      void this.toClients.flush();
      this.retryRetirements();
      this.checks.checkClients();
    });
    return this.cluster.join(this.nodeId, (envelope) => this.receive(envelope));
  }

  /** Runs every `intervalMs`: node liveness, the reply path's checks, and the retries of what failed. */
  tick(): void {
    if (this.leaving) return;
    this.ticks++;
    void this.checkLiveness();
    if (this.toClients.size > 0) void this.toClients.flush();
    this.retryRetirements();
    this.checks.checkCalls();
    if (this.ticks % CLIENT_CHECK_EVERY === 0) this.checks.checkClients();
  }

  /** Tells `nodeId` that a newer session of this browser replaced `record`'s; retried while it cannot be sent. */
  retire(nodeId: string, record: ExtensionRecord): void {
    const key = `${nodeId}\u0000${record.extensionId}\u0000${record.session}`;
    this.retirements.set(key, { nodeId, record, since: performance.now() });
    if (this.retirements.size > MAX_RETIREMENTS) {
      const oldest = this.retirements.keys().next().value;
      if (oldest !== undefined) this.retirements.delete(oldest);
    }
    this.sendRetirement(key);
  }

  /** Fails the attaches still waiting for another node, then leaves the cluster. */
  leave(reason: string): Promise<void> {
    this.leaving = true;
    this.pendingAttaches.close(() => new ProtocolError(ErrorCode.ServerError, reason));
    return this.cluster.leave();
  }

  attachRemote(nodeId: string, request: AttachRequest): Promise<AttachOutcome> {
    const rid = crypto.randomUUID();
    const attached = this.pendingAttaches.wait(
      rid,
      nodeId,
      this.connectTimeoutMs,
      () => `The proxy instance ${nodeId}`,
      {
        unref: true,
        timeoutError: () =>
          new ProtocolError(ErrorCode.ServerError, `${NOT_FOUND} (its proxy instance did not answer)`),
      },
    );
    this.publish(nodeId, { t: 'attach', from: this.nodeId, rid, ...request }).catch(() =>
      this.pendingAttaches.reject(
        rid,
        new ProtocolError(ErrorCode.ServerError, `${NOT_FOUND} (its proxy instance is unreachable)`),
      ),
    );
    return attached;
  }

  detachRemote(nodeId: string, connectionId: string, extensionId: string): void {
    this.publishQuietly(nodeId, { t: 'detach', from: this.nodeId, connectionId, extensionId });
  }

  /** A client's request (`mappedId` set) or notification for an extension on `nodeId`; rejects when unreachable. */
  call(
    nodeId: string,
    call: { connectionId: string; extensionId: string; userId: string; mappedId: string | undefined },
    method: string,
    params: unknown,
  ): Promise<void> {
    const { connectionId, extensionId, userId, mappedId } = call;
    return this.publish(nodeId, {
      t: 'call',
      from: this.nodeId,
      connectionId,
      extensionId,
      userId,
      id: mappedId,
      method,
      params,
    });
  }

  /** A browser's answer for a client on `nodeId`: after everything sent there before it, held while it cannot go (Q2). */
  reply(nodeId: string, connectionId: string, mappedId: string, outcome: CallOutcome): void {
    const envelope: Envelope = outcome.error
      ? { t: 'reply', from: this.nodeId, connectionId, id: mappedId, error: outcome.error }
      : { t: 'reply', from: this.nodeId, connectionId, id: mappedId, result: outcome.result };
    this.toClients.send(nodeId, envelope);
  }

  /** A browser's notification, in its place among that browser's answers (decision 376). */
  notify(nodeId: string, connectionIds: string[], method: string, params: unknown): void {
    this.toClients.send(nodeId, { t: 'ext-notify', from: this.nodeId, connectionIds, method, params });
  }

  /** After the browser's last answers, never before them. */
  ended(nodeId: string, connectionIds: string[], reason: string): void {
    this.toClients.send(nodeId, { t: 'ended', from: this.nodeId, connectionIds, reason });
  }

  /** Ends every connection shared with a node that stopped heart-beating. */
  private async checkLiveness(): Promise<void> {
    if (this.livenessRunning) return;
    const remote = this.routes.remoteNodes();
    if (remote.size === 0) return;
    this.livenessRunning = true;
    try {
      const live = await withTimeout(
        this.cluster.presence.liveNodes([...remote]),
        this.connectTimeoutMs,
        'Liveness check',
      ).catch(() => undefined);
      if (!live || this.leaving) return;
      for (const nodeId of remote) if (!live.has(nodeId)) this.routes.nodeLost(nodeId);
    } finally {
      this.livenessRunning = false;
    }
  }

  private receive(envelope: Envelope): void {
    try {
      this.handleEnvelope(envelope);
    } catch (error) {
      this.logger.error('cluster.envelope_failed', { type: envelope.t, error: toProtocolError(error).message });
    }
  }

  private handleEnvelope(envelope: Envelope): void {
    switch (envelope.t) {
      case 'attach':
        this.onAttach(envelope);
        return;
      case 'attach-result': {
        const settled = envelope.ok
          ? this.pendingAttaches.resolve(envelope.rid, {
              extensionName: envelope.extensionName ?? '',
              peerCount: envelope.peerCount ?? 1,
              nodeId: envelope.from,
            })
          : this.pendingAttaches.reject(
              envelope.rid,
              new ProtocolError(ErrorCode.ServerError, envelope.message ?? NOT_FOUND),
            );
        // Nobody waits any more (timed out) but the other node attached anyway: undo it there.
        if (!settled && envelope.ok) {
          this.detachRemote(envelope.from, envelope.connectionId, envelope.extensionId);
        }
        return;
      }
      case 'detach':
        this.routes.detachLocal(envelope.connectionId, envelope.from);
        return;
      case 'call':
        this.onRemoteCall(envelope);
        return;
      case 'reply': {
        const session = this.routes.connection(envelope.connectionId);
        if (session?.link?.nodeId !== envelope.from) return;
        session.deliverReply(
          envelope.id,
          envelope.error
            ? { error: envelope.error }
            : { result: envelope.result === undefined ? null : envelope.result },
        );
        return;
      }
      case 'ext-notify':
        for (const connectionId of envelope.connectionIds) {
          this.routes
            .connection(connectionId)
            ?.deliverNotification(connectionId, envelope.from, envelope.method, envelope.params);
        }
        return;
      case 'ended':
        for (const connectionId of envelope.connectionIds) {
          this.routes.connection(connectionId)?.linkEnded(connectionId, envelope.reason);
        }
        return;
      case 'retire':
        this.routes.retireLocal(envelope.userId, envelope.extensionId, envelope.session);
        return;
      case 'calls-check':
        this.onCallsCheck(envelope);
        return;
      case 'calls-held':
        this.checks.callsHeld(envelope);
        return;
      case 'clients-check':
        this.onClientsCheck(envelope);
        return;
      case 'clients-held':
        this.checks.clientsHeld(envelope);
        return;
    }
  }

  /**
   * Which of the asking node's calls the browsers here still work on. The answer leaves behind every reply given
   * before it (the outbox keeps their order), or the asking node would take an answered call for a lost one.
   */
  private onCallsCheck(envelope: CallsCheckEnvelope): void {
    const held: string[] = [];
    for (const { connectionId, id } of envelope.calls) {
      const extension = this.routes.attachedExtension(connectionId);
      if (extension?.attached.get(connectionId)?.nodeId !== envelope.from) continue;
      if (extension.stillAsked(connectionId, [id]).length > 0) held.push(id);
    }
    this.toClients.send(envelope.from, { t: 'calls-held', from: this.nodeId, rid: envelope.rid, held });
  }

  /** Which of these connections of ours (attached to browsers on the asking node) still exist here. */
  private onClientsCheck(envelope: ClientsCheckEnvelope): void {
    const held = envelope.connectionIds.filter((connectionId) => {
      const session = this.routes.connection(connectionId);
      return session !== undefined && (session.link === undefined || session.link.nodeId === envelope.from);
    });
    this.publishQuietly(envelope.from, { t: 'clients-held', from: this.nodeId, rid: envelope.rid, held });
  }

  private retryRetirements(): void {
    const tooOld = performance.now() - RETIRE_RETRY_MS;
    for (const [key, retirement] of this.retirements) {
      if (retirement.since < tooOld) this.retirements.delete(key);
      else this.sendRetirement(key);
    }
  }

  private sendRetirement(key: string): void {
    const retirement = this.retirements.get(key);
    if (!retirement) return;
    const { nodeId, record } = retirement;
    const envelope: Envelope = {
      t: 'retire',
      from: this.nodeId,
      userId: record.userId,
      extensionId: record.extensionId,
      session: record.session,
    };
    this.publish(nodeId, envelope).then(
      () => this.retirements.delete(key),
      () => undefined,
    );
  }

  private onAttach(envelope: AttachEnvelope): void {
    const { from, rid, connectionId, extensionId } = envelope;
    let outcome: AttachOutcome;
    try {
      outcome = this.routes.attachLocal(this.routes.extension(extensionId), envelope, from);
    } catch (error) {
      const message = toProtocolError(error).message;
      this.publishQuietly(from, {
        t: 'attach-result',
        from: this.nodeId,
        rid,
        connectionId,
        extensionId,
        ok: false,
        message,
      });
      return;
    }
    const reply: Envelope = {
      t: 'attach-result',
      from: this.nodeId,
      rid,
      connectionId,
      extensionId,
      ok: true,
      extensionName: outcome.extensionName,
      peerCount: outcome.peerCount,
    };
    this.publish(from, reply).catch(() => this.routes.detachLocal(connectionId));
  }

  private onRemoteCall(envelope: Extract<Envelope, { t: 'call' }>): void {
    const extension = this.routes.attachedExtension(envelope.connectionId);
    const client = extension?.attached.get(envelope.connectionId);
    if (
      !extension ||
      !client ||
      client.nodeId !== envelope.from ||
      extension.extensionId !== envelope.extensionId ||
      extension.userId !== envelope.userId
    ) {
      if (envelope.id !== undefined) {
        const error = { code: ErrorCode.ExtensionGone, message: 'Extension is not connected' };
        this.toClients.send(envelope.from, {
          t: 'reply',
          from: this.nodeId,
          connectionId: envelope.connectionId,
          id: envelope.id,
          error,
        });
      }
      this.ended(
        envelope.from,
        [envelope.connectionId],
        'The browser is no longer on the proxy instance that held it: list the browsers again and connect',
      );
      return;
    }
    if (envelope.id === undefined) extension.send(notificationFrame(envelope.method, envelope.params));
    else extension.ask(envelope.connectionId, envelope.id, envelope.method, envelope.params);
  }

  private publish(nodeId: string, envelope: Envelope): Promise<void> {
    return this.cluster.bus.publish(nodeId, envelope).catch((error: unknown) => {
      this.logger.warn('cluster.publish_failed', {
        to: nodeId,
        type: envelope.t,
        error: toProtocolError(error).message,
      });
      throw error;
    });
  }

  /** Fire and forget: a failure is logged by publish(); left unhandled it would end the process (Redis away). */
  private publishQuietly(nodeId: string, envelope: Envelope): void {
    this.publish(nodeId, envelope).catch(() => undefined);
  }
}
