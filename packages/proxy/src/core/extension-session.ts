import { ErrorCode } from '@tabmcp/protocol';
import { TokenExpiry } from '../auth/token-expiry';
import { AuthError, type Identity, roleMismatch, type TokenVerifier } from '../auth/token-verifier';
import type { LeveledLogger } from '../log/logger';
import { AuthenticateResult, ExtensionFrame } from '../wire/client-messages';
import { decodeFrame, rawIdOf } from '../wire/decode';
import { AUTHENTICATE_REQUEST_ID, connectionIdOfMappedId, extensionIdFor } from './id-mapping';
import type { Limits } from './limits';
import { errorFrameOf, localTimestamp, notificationFrame, requestFrame } from './outgoing';
import { CloseCode, type Peer } from './peer';
import type { CallOutcome, Session } from './session';
import { TokenBucket } from './token-bucket';

/** An MCP client connection attached to this extension, and the node that client's socket lives on. */
export interface AttachedClient {
  nodeId: string;
  mcpClientId: string;
}

/** What an extension session needs from the rest of the proxy. */
export interface ExtensionSessionHost {
  readonly limits: Limits;
  readonly logger: LeveledLogger;
  readonly verifier: TokenVerifier;
  /** Takes one of the user's slots (per-user caps), or says why not. */
  admitExtension(session: ExtensionSession, userId: string, extensionId: string): string | undefined;
  extensionAuthenticated(session: ExtensionSession): void;
  /** Called once per session, authenticated or not. */
  extensionClosed(session: ExtensionSession, reason: string): void;
  routeReply(connectionId: string, client: AttachedClient, mappedId: string, outcome: CallOutcome): void;
  routeNotification(session: ExtensionSession, method: string, params: unknown): void;
}

type State = 'awaiting-auth' | 'verifying' | 'ready' | 'closed';

/**
 * Requests asked of one browser and not answered yet, counted across its clients. Past this many the oldest are
 * forgotten: their answers then count against the rate limit like any unsolicited frame.
 */
const MAX_ASKED = 100_000;

/**
 * One extension socket. The extension is passive (docs/requirements.md#remote-proxy): the proxy asks it to authenticate,
 * then forwards calls to it and routes its replies back by mapped id.
 */
export class ExtensionSession implements Session {
  extensionId = '';
  userId = '';
  name = '';
  /** MCP connections attached to this extension, by connection id. */
  readonly attached = new Map<string, AttachedClient>();
  /** Owns this browser's presence record while it is the newest session of its id (cluster.ts). */
  readonly sessionId = crypto.randomUUID();
  /** Mapped ids of the requests forwarded to it and not answered yet, by connection (insertion order is age). */
  private readonly asked = new Map<string, Set<string>>();
  private askedCount = 0;
  private state: State = 'awaiting-auth';
  private readonly bucket: TokenBucket;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private lastRateWarning = 0;
  private readonly expiry = new TokenExpiry(() =>
    this.close(CloseCode.PolicyViolation, 'Token expired: connect again with a fresh token'),
  );

  constructor(
    private readonly host: ExtensionSessionHost,
    readonly peer: Peer,
    private readonly preAuthenticated?: Identity,
  ) {
    this.bucket = new TokenBucket(host.limits.ratePerSecond, host.limits.rateBurst);
    this.handshakeTimer = setTimeout(
      () => this.close(CloseCode.PolicyViolation, 'Authentication timeout'),
      host.limits.handshakeTimeoutMs,
    );
    this.handshakeTimer.unref?.();
    peer.send(requestFrame(AUTHENTICATE_REQUEST_ID, 'authenticate', {}));
  }

  get isAuthenticated(): boolean {
    return this.state === 'ready';
  }

  receive(raw: string): void {
    if (this.state === 'closed') return;
    const decoded = decodeFrame(ExtensionFrame, raw, 'message', this.host.limits.maxMessageBytes);
    if (!decoded.ok) {
      if (this.state !== 'ready') {
        this.failAuthentication(`expected the authenticate response (${decoded.error.message})`);
        return;
      }
      this.invalidFrame(raw, decoded.error.code, decoded.error.message);
      return;
    }
    const frame = decoded.value;
    // The limit is on the asking, not the answering (issue 39 Q3): the answer to a request the proxy forwarded
    // always goes through, however many clients share the browser. Anything else counts (issue 26: each fake
    // reply to a client on another instance was a Redis PUBLISH), the authenticate answer excepted.
    if (frame.method === undefined) {
      if (this.state !== 'ready' || this.wasAsked(frame.id) || this.bucket.take()) this.onResponse(frame);
      else this.rateLimited(undefined);
      return;
    }
    if (!this.bucket.take()) {
      this.rateLimited(frame.id);
      return;
    }
    // Extensions are passive: their requests are refused, their notifications go to attached clients.
    const hasId = frame.id !== undefined && frame.id !== null;
    if (this.state !== 'ready') {
      if (hasId) this.send(errorFrameOf(frame.id ?? null, ErrorCode.ServerError, 'Not authenticated'));
      return;
    }
    if (hasId) {
      this.send(
        errorFrameOf(
          frame.id ?? null,
          ErrorCode.MethodNotFound,
          `Method not found: ${frame.method} (extensions answer requests, they do not send them)`,
        ),
      );
      return;
    }
    this.host.routeNotification(this, frame.method, frame.params);
  }

  /** The socket closed; `reason` says why when this proxy closed it (shutting down, replaced). */
  closed(reason = 'Extension closed'): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.expiry.stop();
    this.host.extensionClosed(this, reason);
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.peer.close(code, reason);
    this.closed(reason);
  }

  /** Tells the extension how many MCP clients it now serves. */
  sendStatus(): void {
    const peerCount = this.attached.size;
    this.send(
      notificationFrame('status', { connected: peerCount > 0, peer_count: peerCount, timestamp: localTimestamp() }),
    );
  }

  send(frame: string): void {
    if (this.state !== 'closed') this.peer.send(frame);
  }

  /** Forwards a client's request, remembering it was asked: its answer is exempt from the rate limit. */
  ask(connectionId: string, mappedId: string, method: string, params: unknown): void {
    if (this.state === 'closed') return;
    let ids = this.asked.get(connectionId);
    if (!ids) {
      ids = new Set();
      this.asked.set(connectionId, ids);
    }
    if (!ids.has(mappedId)) {
      ids.add(mappedId);
      this.askedCount++;
      if (this.askedCount > MAX_ASKED) this.forgetOldestAsked();
    }
    this.peer.send(requestFrame(mappedId, method, params));
  }

  /** Which of these requests of a connection it has been asked and not answered yet. */
  stillAsked(connectionId: string, mappedIds: readonly string[]): string[] {
    const ids = this.asked.get(connectionId);
    return ids ? mappedIds.filter((id) => ids.has(id)) : [];
  }

  /** A client detached: its requests are no longer waited for. */
  detachClient(connectionId: string): void {
    this.attached.delete(connectionId);
    this.askedCount -= this.asked.get(connectionId)?.size ?? 0;
    this.asked.delete(connectionId);
  }

  private wasAsked(id: unknown): boolean {
    const connectionId = connectionIdOfMappedId(id);
    return connectionId !== undefined && this.asked.get(connectionId)?.has(id as string) === true;
  }

  private answered(connectionId: string, mappedId: string): void {
    const ids = this.asked.get(connectionId);
    if (ids?.delete(mappedId)) this.askedCount--;
  }

  private forgetOldestAsked(): void {
    for (const ids of this.asked.values()) {
      const oldest = ids.values().next();
      if (oldest.done) continue;
      ids.delete(oldest.value);
      this.askedCount--;
      return;
    }
  }

  private onResponse(frame: ExtensionFrame): void {
    const id = frame.id;
    if (this.state === 'awaiting-auth') {
      if (id === AUTHENTICATE_REQUEST_ID) this.authenticate(frame);
      return;
    }
    if (this.state !== 'ready' || typeof id !== 'string') return;
    const connectionId = connectionIdOfMappedId(id);
    const client = connectionId === undefined ? undefined : this.attached.get(connectionId);
    if (connectionId === undefined || client === undefined) {
      this.host.logger.debug('extension.reply_dropped', { extension_id: this.extensionId });
      return;
    }
    this.answered(connectionId, id);
    this.host.routeReply(connectionId, client, id, outcomeOf(frame));
  }

  /** A frame that failed validation: when it names a call in flight, that call fails now instead of timing out. */
  private invalidFrame(raw: string, code: number, message: string): void {
    const id = rawIdOf(raw);
    const connectionId = connectionIdOfMappedId(id);
    const client = connectionId === undefined ? undefined : this.attached.get(connectionId);
    if (typeof id === 'string' && connectionId !== undefined && client !== undefined) {
      this.answered(connectionId, id);
      const error = { code: ErrorCode.InternalError, message: `Extension sent an invalid response: ${message}` };
      this.host.routeReply(connectionId, client, id, { error });
      return;
    }
    this.send(errorFrameOf(null, code, message));
  }

  private authenticate(frame: ExtensionFrame): void {
    if (frame.error !== undefined) {
      this.failAuthentication('the extension declined to authenticate');
      return;
    }
    const parsed = AuthenticateResult.safeParse(frame.result);
    const token = parsed.success ? (parsed.data.accessToken ?? parsed.data.access_token) : undefined;
    if (!parsed.success || (token === undefined && !this.preAuthenticated)) {
      this.failAuthentication('the authenticate result needs name and accessToken');
      return;
    }
    const { name, instance } = parsed.data;
    this.state = 'verifying';
    const identity =
      token === undefined ? Promise.resolve(this.preAuthenticated as Identity) : this.host.verifier.verify(token);
    const named = identity.then(async (verified) => ({
      verified,
      extensionId: await extensionIdFor(verified.userId, instance),
    }));
    named.then(
      ({ verified, extensionId }) => {
        if (this.state === 'closed') return;
        if (this.preAuthenticated && verified.userId !== this.preAuthenticated.userId) {
          this.failAuthentication('token is for a different user than the connection');
          return;
        }
        const wrongRole = roleMismatch(verified, 'extension');
        if (wrongRole) {
          this.failAuthentication(wrongRole);
          return;
        }
        const refused = this.host.admitExtension(this, verified.userId, extensionId);
        if (refused) {
          this.close(CloseCode.TryAgainLater, refused);
          return;
        }
        if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
        this.handshakeTimer = undefined;
        this.userId = verified.userId;
        this.expiry.watch(verified);
        this.name = name;
        this.extensionId = extensionId;
        this.state = 'ready';
        this.send(notificationFrame('authenticated', { user_id: this.userId, extension_id: this.extensionId }));
        this.host.extensionAuthenticated(this);
      },
      (error: unknown) => {
        if (this.state === 'closed') return;
        this.failAuthentication(error instanceof AuthError ? error.message : 'Invalid token');
      },
    );
  }

  private failAuthentication(reason: string): void {
    this.host.logger.warn('auth.failed', { role: 'extension', reason });
    this.close(CloseCode.PolicyViolation, `Authentication failed: ${reason}`);
  }

  private rateLimited(id: string | number | null | undefined): void {
    if (id !== undefined && id !== null) this.send(errorFrameOf(id, ErrorCode.ServerError, 'Rate limit exceeded'));
    const now = Date.now();
    if (now - this.lastRateWarning > 10_000) {
      this.lastRateWarning = now;
      this.host.logger.warn('rate_limited', { role: 'extension', extension_id: this.extensionId });
    }
  }
}

/** The spec forbids a bare `{"id": …}` reply: one without exactly one of result/error becomes an error. */
function outcomeOf(frame: ExtensionFrame): CallOutcome {
  const hasResult = frame.result !== undefined;
  const hasError = frame.error !== undefined;
  if (hasError && !hasResult && frame.error) return { error: frame.error };
  if (hasResult && !hasError) return { result: frame.result };
  const message = hasResult
    ? 'Extension sent a response with both result and error'
    : 'Extension sent a response with neither result nor error';
  return { error: { code: ErrorCode.InternalError, message } };
}
