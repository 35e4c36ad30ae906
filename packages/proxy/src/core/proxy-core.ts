import { ErrorCode, ProtocolError, toProtocolError } from '@tabmcp/protocol';
import type { Identity, TokenVerifier } from '../auth/token-verifier';
import type { Cluster, ExtensionRecord } from '../cluster/cluster';
import type { LeveledLogger } from '../log/logger';
import { ClusterProtocol, NOT_FOUND } from './cluster-protocol';
import { type AttachedClient, ExtensionSession, type ExtensionSessionHost } from './extension-session';
import type { Limits } from './limits';
import { McpSession, type McpSessionHost } from './mcp-session';
import { notificationFrame } from './outgoing';
import { CloseCode, type Peer } from './peer';
import type { WaitingCall } from './reply-path';
import type { AttachOutcome, AttachRequest, CallOutcome, Link, Session } from './session';
import { UserSlots } from './user-slots';
import { withTimeout } from './with-timeout';

export interface ProxyCoreOptions {
  /** Unique per process lifetime: presence records and the bus address name it. */
  nodeId: string;
  verifier: TokenVerifier;
  cluster: Cluster;
  limits: Limits;
  logger: LeveledLogger;
  /** How often to check that the nodes we share connections with are alive. */
  livenessIntervalMs?: number;
}

export interface ProxyStats {
  extensions: number;
  unauthenticatedExtensions: number;
  mcpClients: number;
  connections: number;
  inFlight: number;
}

/** What a call waiting on another node gets when Redis goes away: its reply can no longer arrive. */
const CLUSTER_LINK_LOST =
  'Cluster link lost: the browser is on another proxy instance and Redis became unreachable before its answer came back. The call may have run: check the page before calling again';
const EXTENSION_HOST_UNREACHABLE =
  'The proxy instance hosting the extension is unreachable; the call may not have reached it. Check the browser (getTabs) before calling again';
const NODE_LOST = 'Proxy instance hosting the extension is gone';
/** What the clients of a browser hear when its instance stops (issue 27 P9: not "Extension closed"). */
const BROWSER_INSTANCE_STOPPING =
  'The proxy instance holding the browser is restarting or stopping; the browser reconnects by itself and is listed again within seconds (tabmcp connects again when it is)';
/** A close reason fits in 123 bytes. */
const CLIENT_INSTANCE_STOPPING = 'Proxy instance restarting: connect again (tabmcp does so by itself)';
const REPLACED = 'Replaced by a newer connection of the same browser';
/** ≤ 123 bytes: said to the stale socket, which is most likely dead anyway. */
const REPLACED_ELSEWHERE = 'Replaced by a newer connection of the same browser on another proxy instance';

/**
 * The proxy's routing brain: which sockets are which sessions and which MCP connection is attached to which
 * extension, locally or on another node (the envelopes between nodes are ClusterProtocol's). No sockets here.
 */
export class ProxyCore implements McpSessionHost, ExtensionSessionHost {
  readonly limits: Limits;
  readonly logger: LeveledLogger;
  readonly verifier: TokenVerifier;
  readonly nodeId: string;
  private readonly cluster: Cluster;
  /** Authenticated extensions whose socket is on this node. */
  private readonly extensions = new Map<string, ExtensionSession>();
  private readonly extensionSessions = new Set<ExtensionSession>();
  private readonly mcpSessions = new Set<McpSession>();
  /** Connection id → the local extension it is attached to (the client may be on any node). */
  private readonly attachedTo = new Map<string, ExtensionSession>();
  /** Connection id → the local MCP session that owns it (the extension may be on any node). */
  private readonly connections = new Map<string, McpSession>();
  private readonly peers: ClusterProtocol;
  private readonly slots: UserSlots;
  private readonly livenessIntervalMs: number;
  private clusterCheckTimer: NodeJS.Timeout | undefined;
  private livenessTimer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: ProxyCoreOptions) {
    this.nodeId = options.nodeId;
    this.verifier = options.verifier;
    this.cluster = options.cluster;
    this.limits = options.limits;
    this.logger = options.logger;
    this.livenessIntervalMs = options.livenessIntervalMs ?? 2_000;
    this.slots = new UserSlots(options.limits);
    this.peers = new ClusterProtocol({
      nodeId: this.nodeId,
      cluster: this.cluster,
      logger: this.logger,
      connectTimeoutMs: options.limits.connectTimeoutMs,
      intervalMs: this.livenessIntervalMs,
      routes: {
        retireLocal: (userId, extensionId, session) => this.retireLocal(userId, extensionId, session),
        callsWaiting: (cutoff, max) => this.callsWaiting(cutoff, max),
        failCall: (call, nodeId, message) => this.failWaitingCall(call, nodeId, message),
        remoteClients: () => this.remoteClients(),
        detachClient: (connectionId, nodeId) => this.detachLocal(connectionId, nodeId),
        extension: (extensionId) => this.extensions.get(extensionId),
        attachedExtension: (connectionId) => this.attachedTo.get(connectionId),
        connection: (connectionId) => this.connections.get(connectionId),
        attachLocal: (extension, request, fromNode) => this.attachLocal(extension, request, fromNode),
        detachLocal: (connectionId, fromNode) => this.detachLocal(connectionId, fromNode),
        remoteNodes: () => this.remoteNodes(),
        nodeLost: (nodeId) => this.nodeLost(nodeId),
      },
    });
  }

  async start(): Promise<void> {
    await this.peers.join();
    // A pub/sub outage shorter than the sweep below would otherwise go unseen, and the replies
    // published during it with it (issue 27 P1): the moment a connection closes, answer.
    this.cluster.onLinkLost(() => this.failCallsViaLostCluster(true));
    // A write of ours lost to a newer session elsewhere: ours is stale (issue 39 Q4).
    this.cluster.onSuperseded((record) => this.retireLocal(record.userId, record.extensionId, record.session));
    const checkMs = Math.max(10, Math.min(1_000, Math.floor(this.limits.callTimeoutMs / 4)));
    this.clusterCheckTimer = setInterval(() => this.failCallsViaLostCluster(), checkMs);
    this.clusterCheckTimer.unref?.();
    this.livenessTimer = setInterval(() => this.peers.tick(), this.livenessIntervalMs);
    this.livenessTimer.unref?.();
  }

  acceptExtension(peer: Peer, preAuthenticated?: Identity): Session {
    const session = new ExtensionSession(this, peer, preAuthenticated);
    this.extensionSessions.add(session);
    return session;
  }

  acceptMcpClient(peer: Peer, preAuthenticated?: Identity): Session {
    const session = new McpSession(this, peer, preAuthenticated);
    this.mcpSessions.add(session);
    const refused = preAuthenticated ? this.admitClient(session) : undefined;
    if (refused) session.close(CloseCode.TryAgainLater, refused);
    return session;
  }

  /** Why this user may not open one more socket of `role` here (the per-user caps), or undefined. */
  userSlotRefusal(userId: string, role: 'extension' | 'client'): string | undefined {
    return this.slots.refusal(userId, role);
  }

  admitClient(session: McpSession): string | undefined {
    const refused = this.slots.take(session, session.userId, 'client');
    if (refused) this.logger.warn('user.cap_reached', { role: 'mcp', user_id: session.userId, reason: refused });
    return refused;
  }

  admitExtension(session: ExtensionSession, userId: string, extensionId: string): string | undefined {
    const replacing = this.extensions.get(extensionId)?.userId === userId;
    const refused = this.slots.take(session, userId, 'extension', replacing);
    if (refused) this.logger.warn('user.cap_reached', { role: 'extension', user_id: userId, reason: refused });
    return refused;
  }

  stats(): ProxyStats {
    let inFlight = 0;
    let connections = 0;
    for (const session of this.mcpSessions) {
      inFlight += session.pending.size;
      if (session.link) connections++;
    }
    return {
      extensions: this.extensions.size,
      unauthenticatedExtensions: this.extensionSessions.size - this.extensions.size,
      mcpClients: this.mcpSessions.size,
      connections,
      inFlight,
    };
  }

  clusterState(): 'up' | 'down' {
    return this.cluster.state();
  }

  /** Closes every session (telling other nodes), then leaves the cluster. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.clusterCheckTimer);
      clearInterval(this.livenessTimer);
      for (const session of [...this.mcpSessions]) session.close(CloseCode.ServiceRestart, CLIENT_INSTANCE_STOPPING);
      for (const session of [...this.extensionSessions]) session.close(CloseCode.GoingAway, BROWSER_INSTANCE_STOPPING);
      await this.peers.leave(BROWSER_INSTANCE_STOPPING);
    })();
    return this.closing;
  }

  // ---- MCP side ----

  listExtensions(userId: string): Promise<ExtensionRecord[]> {
    return withTimeout(this.cluster.presence.list(userId), this.limits.connectTimeoutMs, 'Extension look-up');
  }

  /**
   * `connect` follows presence (issue 39 Q4): a session of this browser here is used only while the record does not
   * name a newer one elsewhere. A stale one (its socket died unnoticed, the browser is on another instance now) is
   * retired on the way. With the registry unreachable, or the record not written yet, a local session is the best
   * knowledge there is.
   */
  async attach(request: AttachRequest): Promise<AttachOutcome> {
    const local = this.extensions.get(request.extensionId);
    let record: ExtensionRecord | undefined;
    try {
      record = await withTimeout(
        this.cluster.presence.find(request.userId, request.extensionId),
        this.limits.connectTimeoutMs,
        'Extension look-up',
      );
    } catch (error) {
      this.logger.error('presence.find_failed', { error: toProtocolError(error).message });
      const stillLocal = this.extensions.get(request.extensionId);
      if (stillLocal) return this.attachLocal(stillLocal, request, this.nodeId);
      throw new ProtocolError(ErrorCode.InternalError, 'Internal error: extension registry unavailable');
    }
    const here = this.extensions.get(request.extensionId) ?? local;
    const elsewhere = record !== undefined && record.nodeId !== this.nodeId && record.session !== here?.sessionId;
    if (here && elsewhere && record) {
      this.retireLocal(here.userId, here.extensionId, here.sessionId);
    } else if (here) {
      return this.attachLocal(here, request, this.nodeId);
    }
    // The record's user is checked again here and on the owning node: isolation never rests on one check.
    if (!record || record.userId !== request.userId || record.nodeId === this.nodeId) {
      throw new ProtocolError(ErrorCode.ServerError, NOT_FOUND);
    }
    return this.peers.attachRemote(record.nodeId, request);
  }

  detach(connectionId: string, extensionId: string, nodeId: string): void {
    if (nodeId === this.nodeId) this.detachLocal(connectionId);
    else this.peers.detachRemote(nodeId, connectionId, extensionId);
  }

  forward(session: McpSession, link: Link, mappedId: string | undefined, method: string, params: unknown): void {
    if (link.nodeId === this.nodeId) {
      const extension = this.attachedTo.get(link.connectionId);
      if (!extension) {
        if (mappedId !== undefined) session.failCall(mappedId, ErrorCode.ExtensionGone, 'Extension is not connected');
        return;
      }
      if (mappedId === undefined) extension.send(notificationFrame(method, params));
      else extension.ask(link.connectionId, mappedId, method, params);
      return;
    }
    const call = { connectionId: link.connectionId, extensionId: link.extensionId, userId: session.userId, mappedId };
    this.peers.call(link.nodeId, call, method, params).catch(() => {
      if (mappedId !== undefined) session.failCall(mappedId, ErrorCode.ProxyRouteLost, EXTENSION_HOST_UNREACHABLE);
    });
  }

  registerConnection(connectionId: string, session: McpSession): void {
    this.connections.set(connectionId, session);
  }

  unregisterConnection(connectionId: string): void {
    this.connections.delete(connectionId);
  }

  mcpSessionClosed(session: McpSession): void {
    this.mcpSessions.delete(session);
    this.slots.release(session);
    this.logger.info('mcp.closed', { mcp_client_id: session.mcpClientId, user_id: session.userId || undefined });
  }

  // ---- extension side ----

  extensionAuthenticated(session: ExtensionSession): void {
    // The same browser again (stable id) while its old socket lingers here: the new one replaces it,
    // and the old one's close withdraws nothing (the record is the new one's).
    const previous = this.extensions.get(session.extensionId);
    this.extensions.set(session.extensionId, session);
    previous?.close(CloseCode.Normal, REPLACED);
    this.logger.info('extension.authenticated', {
      extension_id: session.extensionId,
      user_id: session.userId,
      name: session.name,
    });
    const record: ExtensionRecord = {
      extensionId: session.extensionId,
      userId: session.userId,
      name: session.name,
      nodeId: this.nodeId,
      connectedAt: Date.now(),
      role: 'extension',
      session: session.sessionId,
      epoch: 0,
    };
    this.cluster.presence.announce(record).then(
      // The browser was registered by a session elsewhere, whose socket may linger there for a minute: it goes now,
      // so one browser id has one live session in the whole cluster (issue 39 Q4).
      ({ replaced }) => {
        if (replaced && replaced.nodeId !== this.nodeId) this.peers.retire(replaced.nodeId, replaced);
      },
      (error: unknown) => {
        this.logger.warn('presence.announce_failed', {
          extension_id: record.extensionId,
          error: toProtocolError(error).message,
        });
      },
    );
  }

  extensionClosed(session: ExtensionSession, reason: string): void {
    this.extensionSessions.delete(session);
    this.slots.release(session);
    if (this.extensions.get(session.extensionId) === session) {
      this.extensions.delete(session.extensionId);
      // Only while this session owns the record: a newer one elsewhere keeps it (issue 39 Q1).
      const withdrawn = this.cluster.presence.withdraw(session.userId, session.extensionId, session.sessionId);
      withdrawn.catch((error: unknown) => {
        this.logger.warn('presence.withdraw_failed', {
          extension_id: session.extensionId,
          error: toProtocolError(error).message,
        });
      });
    } else if (session.attached.size === 0) return;
    this.logger.info('extension.closed', { extension_id: session.extensionId, peers: session.attached.size, reason });
    const remote = new Map<string, string[]>();
    for (const [connectionId, client] of session.attached) {
      this.attachedTo.delete(connectionId);
      if (client.nodeId === this.nodeId) this.connections.get(connectionId)?.linkEnded(connectionId, reason);
      else remote.set(client.nodeId, [...(remote.get(client.nodeId) ?? []), connectionId]);
    }
    session.attached.clear();
    for (const [nodeId, connectionIds] of remote) this.peers.ended(nodeId, connectionIds, reason);
  }

  routeReply(connectionId: string, client: AttachedClient, mappedId: string, outcome: CallOutcome): void {
    if (client.nodeId === this.nodeId) {
      this.connections.get(connectionId)?.deliverReply(mappedId, outcome);
      return;
    }
    this.peers.reply(client.nodeId, connectionId, mappedId, outcome);
  }

  routeNotification(session: ExtensionSession, method: string, params: unknown): void {
    const remote = new Map<string, string[]>();
    for (const [connectionId, client] of session.attached) {
      if (client.nodeId === this.nodeId) {
        this.connections.get(connectionId)?.deliverNotification(connectionId, this.nodeId, method, params);
      } else remote.set(client.nodeId, [...(remote.get(client.nodeId) ?? []), connectionId]);
    }
    for (const [nodeId, connectionIds] of remote) this.peers.notify(nodeId, connectionIds, method, params);
  }

  // ---- local routing table ----

  private attachLocal(
    extension: ExtensionSession | undefined,
    request: AttachRequest,
    fromNode: string,
  ): AttachOutcome {
    if (!extension?.isAuthenticated || extension.userId !== request.userId) {
      throw new ProtocolError(ErrorCode.ServerError, NOT_FOUND);
    }
    extension.attached.set(request.connectionId, { nodeId: fromNode, mcpClientId: request.mcpClientId });
    this.attachedTo.set(request.connectionId, extension);
    extension.sendStatus();
    return { extensionName: extension.name, peerCount: extension.attached.size, nodeId: this.nodeId };
  }

  private detachLocal(connectionId: string, fromNode?: string): void {
    const extension = this.attachedTo.get(connectionId);
    if (!extension) return;
    if (fromNode !== undefined && extension.attached.get(connectionId)?.nodeId !== fromNode) return;
    this.attachedTo.delete(connectionId);
    extension.detachClient(connectionId);
    extension.sendStatus();
  }

  /** Closes the local session of a browser that registered anew elsewhere, if it is still the named session. */
  private retireLocal(userId: string, extensionId: string, session: string): void {
    const local = this.extensions.get(extensionId);
    if (!local || local.userId !== userId || local.sessionId !== session) return;
    this.logger.info('extension.retired', { extension_id: extensionId, user_id: userId });
    local.close(CloseCode.Normal, REPLACED_ELSEWHERE);
  }

  private callsWaiting(cutoff: number, max: number): Map<string, WaitingCall[]> {
    const byNode = new Map<string, WaitingCall[]>();
    for (const session of this.mcpSessions) {
      const link = session.link;
      if (!link || link.nodeId === this.nodeId || session.pending.size === 0) continue;
      const calls = byNode.get(link.nodeId) ?? [];
      if (calls.length >= max) continue;
      for (const id of session.pending.sentBefore(cutoff, max - calls.length)) {
        calls.push({ connectionId: link.connectionId, id });
      }
      if (calls.length > 0) byNode.set(link.nodeId, calls);
    }
    return byNode;
  }

  private failWaitingCall(call: WaitingCall, nodeId: string, message: string): boolean {
    const session = this.connections.get(call.connectionId);
    if (session?.link?.connectionId !== call.connectionId || session.link.nodeId !== nodeId) return false;
    return session.pending.fail(call.id, ErrorCode.ProxyRouteLost, message);
  }

  private remoteClients(): Map<string, string[]> {
    const byNode = new Map<string, string[]>();
    for (const [connectionId, extension] of this.attachedTo) {
      const client = extension.attached.get(connectionId);
      if (!client || client.nodeId === this.nodeId) continue;
      const ids = byNode.get(client.nodeId);
      if (ids) ids.push(connectionId);
      else byNode.set(client.nodeId, [connectionId]);
    }
    return byNode;
  }

  /** Replies from another node come only through the cluster: with the link down they never will. */
  private failCallsViaLostCluster(closedJustNow = false): void {
    if (!closedJustNow && this.cluster.state() !== 'down') return;
    const remote = (nodeId: string) => nodeId !== this.nodeId;
    for (const session of this.mcpSessions) session.failCallsVia(remote, CLUSTER_LINK_LOST);
  }

  private remoteNodes(): Set<string> {
    const remote = new Set<string>();
    for (const session of this.connections.values()) {
      if (session.link && session.link.nodeId !== this.nodeId) remote.add(session.link.nodeId);
    }
    for (const [connectionId, extension] of this.attachedTo) {
      const client = extension.attached.get(connectionId);
      if (client && client.nodeId !== this.nodeId) remote.add(client.nodeId);
    }
    return remote;
  }

  private nodeLost(nodeId: string): void {
    this.logger.warn('cluster.node_lost', { node: nodeId });
    for (const [connectionId, session] of [...this.connections]) {
      if (session.link?.nodeId === nodeId) session.linkEnded(connectionId, NODE_LOST);
    }
    for (const [connectionId, extension] of [...this.attachedTo]) {
      if (extension.attached.get(connectionId)?.nodeId === nodeId) this.detachLocal(connectionId);
    }
  }
}
