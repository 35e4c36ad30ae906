import {
  describeIssues,
  ErrorCode,
  type JsonRpcId,
  MAX_ID_LENGTH,
  ProtocolError,
  toProtocolError,
} from '@tabmcp/protocol';
import { TokenExpiry } from '../auth/token-expiry';
import { AuthError, type Identity, roleMismatch, type TokenVerifier } from '../auth/token-verifier';
import type { ExtensionRecord } from '../cluster/cluster';
import type { LeveledLogger } from '../log/logger';
import { ConnectParams, HandshakeParams, McpClientFrame, NoParams } from '../wire/client-messages';
import { decodeFrame, idOfFrame } from '../wire/decode';
import { ConnectWindow } from './connect-window';
import { isReservedClientId, mapRequestId, newConnectionId, newMcpClientId } from './id-mapping';
import type { Limits } from './limits';
import { errorFrame, errorFrameOf, localTimestamp, notificationFrame, resultFrame } from './outgoing';
import { CloseCode, type Peer } from './peer';
import { PendingCalls } from './pending-calls';
import type { AttachOutcome, AttachRequest, CallOutcome, Link, Session } from './session';
import { TokenBucket } from './token-bucket';

/** What an MCP session needs from the rest of the proxy. */
export interface McpSessionHost {
  readonly limits: Limits;
  readonly logger: LeveledLogger;
  readonly verifier: TokenVerifier;
  listExtensions(userId: string): Promise<ExtensionRecord[]>;
  /** Resolves when the extension accepted the connection; rejects with a ProtocolError otherwise. */
  attach(request: AttachRequest): Promise<AttachOutcome>;
  detach(connectionId: string, extensionId: string, nodeId: string): void;
  /** Takes one of the user's slots (per-user caps), or says why not. */
  admitClient(session: McpSession): string | undefined;
  /** `mappedId` undefined forwards a notification. */
  forward(session: McpSession, link: Link, mappedId: string | undefined, method: string, params: unknown): void;
  registerConnection(connectionId: string, session: McpSession): void;
  unregisterConnection(connectionId: string): void;
  mcpSessionClosed(session: McpSession): void;
}

type State = 'awaiting-handshake' | 'verifying' | 'ready' | 'closed';

interface ConnectAttempt {
  connectionId: string;
  /** What the browser sends the connection before the client has the answer (decision 384). */
  window: ConnectWindow;
  /** Set when the extension vanished, or the client gave up, before the attach was confirmed. */
  abandoned?: 'ended' | 'cancelled';
}

/** Methods the proxy sends itself: a client may never have them forwarded to an extension. */
/**
 * A rate-limited frame up to this size is still parsed for its id, so a request gets its error answer; a bigger
 * one only when the id leads the frame (as every client we know writes it).
 */
const RATE_LIMITED_ID_SCAN_CHARS = 4_096;

const PROXY_ONLY_METHODS = new Set(['authenticate', 'authenticated', 'status', 'disconnected']);

const NOT_FOUND = 'Extension not found or not accessible';
const MAX_BACKLOG = 64;
const BACKLOG_FULL = `More than ${MAX_BACKLOG} requests arrived before mcp_handshake was answered: wait for its answer, then send them again`;

/**
 * One MCP client socket: handshake, control methods, forwarding with id mapping. Never touches a socket;
 * everything goes through the {@link Peer} and the {@link McpSessionHost}.
 */
export class McpSession implements Session {
  readonly mcpClientId = newMcpClientId();
  userId = '';
  link: Link | undefined;
  readonly pending: PendingCalls;
  private state: State;
  private connecting: ConnectAttempt | undefined;
  private readonly bucket: TokenBucket;
  private handshakeTimer: NodeJS.Timeout | undefined;
  /** Frames that arrived while the handshake token was being checked; replayed after it. */
  private backlog: string[] = [];
  private lastRateWarning = 0;
  private readonly expiry = new TokenExpiry(() =>
    this.close(CloseCode.PolicyViolation, 'Token expired: connect again with a fresh token'),
  );

  constructor(
    private readonly host: McpSessionHost,
    readonly peer: Peer,
    preAuthenticated?: Identity,
  ) {
    this.bucket = new TokenBucket(host.limits.ratePerSecond, host.limits.rateBurst);
    this.pending = new PendingCalls(host.limits.callTimeoutMs, (id, outcome) =>
      this.send(outcome.error ? errorFrame(id, outcome.error) : resultFrame(id, outcome.result)),
    );
    if (preAuthenticated) {
      this.becomeAuthenticated(preAuthenticated);
      this.state = 'ready';
    } else {
      this.state = 'awaiting-handshake';
      this.handshakeTimer = setTimeout(
        () => this.close(CloseCode.PolicyViolation, 'Authentication timeout'),
        host.limits.handshakeTimeoutMs,
      );
      this.handshakeTimer.unref?.();
    }
  }

  get isAuthenticated(): boolean {
    return this.state === 'ready';
  }

  receive(raw: string): void {
    if (this.state === 'closed') return;
    if (this.state === 'verifying') {
      if (this.backlog.length < MAX_BACKLOG) {
        this.backlog.push(raw);
        return;
      }
      // Past the backlog every request is still answered, never dropped (issue 27 P5).
      const id = idOfFrame(raw);
      if (id !== null) this.send(errorFrameOf(id, ErrorCode.ServerError, BACKLOG_FULL));
      return;
    }
    // The bucket comes before the parse, so a flood costs a token check per frame, not a JSON parse of 1 MB.
    if (!this.bucket.take()) {
      this.rateLimited(raw.length <= RATE_LIMITED_ID_SCAN_CHARS ? idOfFrame(raw) : leadingIdOf(raw));
      return;
    }
    const decoded = decodeFrame(McpClientFrame, raw, 'message', this.host.limits.maxMessageBytes);
    if (!decoded.ok) {
      this.send(errorFrameOf(decoded.id, decoded.error.code, decoded.error.message));
      return;
    }
    const frame = decoded.value;
    if (frame.id !== undefined && isReservedClientId(frame.id)) {
      this.send(
        errorFrameOf(
          frame.id,
          ErrorCode.InvalidRequest,
          'Invalid Request: ids starting with "proxy:" or "ext:", or containing "conn-…:", are reserved',
        ),
      );
      return;
    }
    if (this.state === 'awaiting-handshake') {
      if (frame.method === 'mcp_handshake' && frame.id !== undefined) this.handshake(frame.id, frame.params);
      else if (frame.id !== undefined) {
        this.send(errorFrameOf(frame.id, ErrorCode.ServerError, 'Not authenticated: send mcp_handshake first'));
      }
      return;
    }
    this.dispatch(frame);
  }

  closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.backlog = [];
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.expiry.stop();
    if (this.connecting) {
      this.connecting.abandoned = 'cancelled';
      this.closeWindow(this.connecting, undefined);
    }
    this.connecting = undefined;
    const link = this.link;
    if (link) {
      this.link = undefined;
      this.host.unregisterConnection(link.connectionId);
      this.host.detach(link.connectionId, link.extensionId, link.nodeId);
    }
    this.pending.failAll(ErrorCode.ServerError, 'The client closed'); // answers nobody: the session is closed
    this.host.mcpSessionClosed(this);
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.peer.close(code, reason);
    this.closed();
  }

  /** The extension went away (it closed, or its proxy node died). */
  linkEnded(connectionId: string, reason: string): void {
    if (this.connecting?.connectionId === connectionId) {
      this.connecting.abandoned = 'ended';
      return;
    }
    const link = this.link;
    if (!link || link.connectionId !== connectionId) return;
    this.link = undefined;
    this.host.unregisterConnection(connectionId);
    this.pending.failAll(ErrorCode.ExtensionGone, `Extension disconnected: ${reason}`);
    this.send(notificationFrame('disconnected', { connection_id: connectionId, reason }));
    this.host.logger.info('mcp.link_ended', { mcp_client_id: this.mcpClientId, connection_id: connectionId, reason });
  }

  deliverReply(mappedId: string, outcome: CallOutcome): void {
    this.pending.settle(mappedId, outcome);
  }

  /**
   * A notification of the browser behind `connectionId`, from its node. Until the client has the answer to its
   * `connect`, it waits in the connect window, so it comes after that answer, never before it and never lost.
   */
  deliverNotification(connectionId: string, fromNode: string, method: string, params: unknown): void {
    const link = this.link;
    if (link?.connectionId === connectionId && link.nodeId === fromNode) {
      this.send(notificationFrame(method, params));
      return;
    }
    if (this.connecting?.connectionId === connectionId) {
      this.connecting.window.hold(fromNode, notificationFrame(method, params));
    }
  }

  failCall(mappedId: string, code: number, message: string): void {
    this.pending.fail(mappedId, code, message);
  }

  /** Fails every call in flight on a link that runs through `nodeId`'s bus; the link itself is kept. */
  failCallsVia(isUnreachable: (nodeId: string) => boolean, message: string): void {
    if (!this.link || !isUnreachable(this.link.nodeId) || this.pending.size === 0) return;
    this.pending.failAll(ErrorCode.ProxyRouteLost, message);
  }

  private send(frame: string): void {
    if (this.state !== 'closed') this.peer.send(frame);
  }

  private rateLimited(id: JsonRpcId | null | undefined): void {
    if (id !== undefined && id !== null) this.send(errorFrameOf(id, ErrorCode.ServerError, 'Rate limit exceeded'));
    const now = Date.now();
    if (now - this.lastRateWarning > 10_000) {
      this.lastRateWarning = now;
      this.host.logger.warn('rate_limited', { role: 'mcp', mcp_client_id: this.mcpClientId, user_id: this.userId });
    }
  }

  private becomeAuthenticated(identity: Identity): void {
    this.userId = identity.userId;
    this.expiry.watch(identity);
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.handshakeTimer = undefined;
    this.host.logger.info('mcp.authenticated', { mcp_client_id: this.mcpClientId, user_id: this.userId });
  }

  private handshakeResult(): Record<string, unknown> {
    return { authenticated: true, user_id: this.userId, mcp_client_id: this.mcpClientId };
  }

  private handshake(id: JsonRpcId, params: unknown): void {
    const parsed = HandshakeParams.safeParse(params ?? {});
    if (!parsed.success) {
      this.send(errorFrameOf(id, ErrorCode.InvalidParams, `Invalid params: ${describeIssues(parsed.error)}`));
      return;
    }
    const token = parsed.data.accessToken ?? parsed.data.access_token;
    if (token === undefined) {
      if (this.state === 'ready') this.send(resultFrame(id, this.handshakeResult()));
      else this.send(errorFrameOf(id, ErrorCode.InvalidParams, 'Invalid params: accessToken is required'));
      return;
    }
    const wasReady = this.state === 'ready';
    this.state = 'verifying';
    this.host.verifier.verify(token).then(
      (identity) => {
        if (this.state === 'closed') return;
        if (wasReady && identity.userId !== this.userId) {
          this.rejectHandshake(id, 'Token is for a different user');
          return;
        }
        const wrongRole = roleMismatch(identity, 'client');
        if (wrongRole) {
          this.rejectHandshake(id, wrongRole);
          return;
        }
        if (!wasReady) {
          this.becomeAuthenticated(identity);
          const refused = this.host.admitClient(this);
          if (refused) {
            this.send(errorFrameOf(id, ErrorCode.ServerError, refused));
            this.close(CloseCode.TryAgainLater, refused);
            return;
          }
        }
        // A fresh token on a live connection moves its deadline.
        else this.expiry.watch(identity);
        this.state = 'ready';
        this.send(resultFrame(id, this.handshakeResult()));
        const backlog = this.backlog;
        this.backlog = [];
        for (const frame of backlog) this.receive(frame);
      },
      (error: unknown) => {
        if (this.state === 'closed') return;
        this.rejectHandshake(id, error instanceof AuthError ? error.message : 'Invalid token');
      },
    );
  }

  private rejectHandshake(id: JsonRpcId, reason: string): void {
    this.host.logger.warn('auth.failed', { role: 'mcp', mcp_client_id: this.mcpClientId, reason });
    // -32000 is the spec's code for this reply; the client tells a refused token by data.code, not by the words.
    const data = { code: ErrorCode.TokenRefused };
    this.send(errorFrameOf(id, ErrorCode.ServerError, `Authentication failed: ${reason}`, data));
    this.close(CloseCode.PolicyViolation, `Authentication failed: ${reason}`);
  }

  private dispatch(frame: McpClientFrame): void {
    const { id, method } = frame;
    if (method === 'mcp_handshake') {
      if (id !== undefined) this.handshake(id, frame.params);
      return;
    }
    if (method === 'list_extensions' || method === 'connect' || method === 'disconnect') {
      // Control methods answer; as notifications there is nobody to answer, so they are ignored.
      if (id === undefined) return;
      if (method === 'list_extensions') this.listExtensions(id, frame.params);
      else if (method === 'connect') this.connect(id, frame.params);
      else this.disconnect(id, frame.params);
      return;
    }
    if (PROXY_ONLY_METHODS.has(method)) {
      if (id !== undefined) {
        this.send(
          errorFrameOf(id, ErrorCode.MethodNotFound, `Method not found: ${method} is sent by the proxy, not to it`),
        );
      }
      return;
    }
    this.forward(frame);
  }

  private listExtensions(id: JsonRpcId, params: unknown): void {
    if (!NoParams.safeParse(params).success) {
      this.send(errorFrameOf(id, ErrorCode.InvalidParams, 'Invalid params: list_extensions takes no params'));
      return;
    }
    this.host.listExtensions(this.userId).then(
      (records) => {
        const extensions = records
          .sort((a, b) => a.connectedAt - b.connectedAt)
          .map((record) => ({ id: record.extensionId, name: record.name, connected: true }));
        this.send(resultFrame(id, { extensions }));
      },
      (error: unknown) => {
        this.host.logger.error('presence.list_failed', { error: toProtocolError(error).message });
        this.send(errorFrameOf(id, ErrorCode.InternalError, 'Internal error: extension registry unavailable'));
      },
    );
  }

  private connect(id: JsonRpcId, params: unknown): void {
    if (this.link || this.connecting) {
      this.send(errorFrameOf(id, ErrorCode.AlreadyConnected, 'MCP client already connected to an extension'));
      return;
    }
    const parsed = ConnectParams.safeParse(params);
    if (!parsed.success) {
      this.send(errorFrameOf(id, ErrorCode.InvalidParams, `Invalid params: ${describeIssues(parsed.error)}`));
      return;
    }
    const extensionId = parsed.data.extension_id;
    const attempt: ConnectAttempt = { connectionId: newConnectionId(), window: new ConnectWindow() };
    this.connecting = attempt;
    // Registered before the attach completes, so an "extension ended" racing the confirmation is not lost.
    this.host.registerConnection(attempt.connectionId, this);
    const request = {
      connectionId: attempt.connectionId,
      extensionId,
      userId: this.userId,
      mcpClientId: this.mcpClientId,
    };
    this.host.attach(request).then(
      (outcome) => {
        if (attempt.abandoned) {
          this.host.unregisterConnection(attempt.connectionId);
          this.host.detach(attempt.connectionId, extensionId, outcome.nodeId);
          const message = attempt.abandoned === 'ended' ? NOT_FOUND : 'Connect cancelled by disconnect';
          this.send(errorFrameOf(id, ErrorCode.ServerError, message));
          this.closeWindow(attempt, undefined);
          return;
        }
        this.connecting = undefined;
        this.link = {
          connectionId: attempt.connectionId,
          extensionId,
          extensionName: outcome.extensionName,
          nodeId: outcome.nodeId,
        };
        this.send(
          resultFrame(id, {
            connection_id: attempt.connectionId,
            extension_id: extensionId,
            extension_name: outcome.extensionName,
          }),
        );
        this.send(
          notificationFrame('status', { connected: true, peer_count: outcome.peerCount, timestamp: localTimestamp() }),
        );
        this.closeWindow(attempt, outcome.nodeId);
        this.host.logger.info('mcp.connected', {
          mcp_client_id: this.mcpClientId,
          connection_id: attempt.connectionId,
          extension_id: extensionId,
          extension_node: outcome.nodeId,
        });
      },
      (error: unknown) => {
        if (this.connecting === attempt) this.connecting = undefined;
        this.host.unregisterConnection(attempt.connectionId);
        const failure = error instanceof ProtocolError ? error : new ProtocolError(ErrorCode.ServerError, NOT_FOUND);
        this.send(errorFrameOf(id, failure.code, failure.message));
        this.closeWindow(attempt, undefined);
      },
    );
  }

  /**
   * Sends what the window held, behind the connect's answer (`nodeId`: the node the connection was attached through;
   * undefined when the connect failed). What it could not deliver is logged, never dropped silently.
   */
  private closeWindow(attempt: ConnectAttempt, nodeId: string | undefined): void {
    const { frames, outcome } = attempt.window.close(nodeId);
    for (const frame of frames) this.send(frame);
    if (outcome.overflowed === 0 && outcome.discarded === 0) return;
    this.host.logger.warn('mcp.connect_window_dropped', {
      mcp_client_id: this.mcpClientId,
      connection_id: attempt.connectionId,
      ...outcome,
    });
  }

  private disconnect(id: JsonRpcId, params: unknown): void {
    if (!NoParams.safeParse(params).success) {
      this.send(errorFrameOf(id, ErrorCode.InvalidParams, 'Invalid params: disconnect takes no params'));
      return;
    }
    if (this.connecting) {
      this.connecting.abandoned = 'cancelled';
      this.connecting = undefined;
    }
    const link = this.link;
    if (link) {
      this.link = undefined;
      this.host.unregisterConnection(link.connectionId);
      this.host.detach(link.connectionId, link.extensionId, link.nodeId);
      this.pending.failAll(ErrorCode.ExtensionGone, 'Disconnected from the extension before it answered');
      this.host.logger.info('mcp.disconnected', { mcp_client_id: this.mcpClientId, connection_id: link.connectionId });
    }
    this.send(resultFrame(id, { disconnected: true }));
  }

  private forward(frame: McpClientFrame): void {
    const { id, method, params, connectionId } = frame;
    const link = this.link;
    if (connectionId !== undefined && connectionId !== link?.connectionId) {
      if (id !== undefined) {
        this.send(errorFrameOf(id, ErrorCode.ServerError, "connectionId does not name this client's connection"));
      }
      return;
    }
    if (!link) {
      if (id !== undefined) {
        this.send(
          errorFrameOf(id, ErrorCode.MethodNotFound, `Method not found: ${method} (connect to an extension first)`),
        );
      }
      return;
    }
    if (id === undefined) {
      this.host.forward(this, link, undefined, method, params);
      return;
    }
    if (this.pending.size >= this.host.limits.maxInFlightPerClient) {
      this.send(errorFrameOf(id, ErrorCode.ServerError, 'Too many requests in flight'));
      return;
    }
    const mappedId = mapRequestId(link.connectionId, id);
    // The extension reads ids of at most MAX_ID_LENGTH: a longer mapped id would reach it as a
    // notification and never be answered (issue 27 P6).
    if (mappedId.length > MAX_ID_LENGTH) {
      const room = MAX_ID_LENGTH - (mappedId.length - String(id).length);
      this.send(
        errorFrameOf(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request: ids of forwarded requests may have at most ${room} characters`,
        ),
      );
      return;
    }
    if (this.pending.has(mappedId)) {
      this.send(
        errorFrameOf(id, ErrorCode.InvalidRequest, 'Invalid Request: a request with this id is still in flight'),
      );
      return;
    }
    this.pending.add(mappedId, id);
    this.host.forward(this, link, mappedId, method, params);
  }
}

const LEADING_ID = /^\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*,/;

function leadingIdOf(raw: string): JsonRpcId | null {
  const match = LEADING_ID.exec(raw.slice(0, 256));
  if (!match?.[1]) return null;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}
