import { toProtocolError } from '@tabmcp/protocol';
import type { LeveledLogger } from '../log/logger';
import { type Envelope, MAX_CHECKED } from '../wire/envelopes';

/** A call of a local client waiting on a browser on another node. */
export interface WaitingCall {
  connectionId: string;
  /** The mapped id, as the browser's node knows it. */
  id: string;
}

/** What the checks read and change in the local routing table (ProxyCore). */
export interface ReplyPathRoutes {
  /** Local clients' calls waiting on each other node, sent before `cutoff` (performance.now()), oldest first. */
  callsWaiting(cutoff: number, max: number): Map<string, WaitingCall[]>;
  /** Fails the call with -32011, if it still waits on `nodeId`; whether it did. */
  failCall(call: WaitingCall, nodeId: string, message: string): boolean;
  /** Connections of clients on each other node attached to local browsers. */
  remoteClients(): Map<string, string[]>;
  /** Detaches a client its node no longer holds (the detach was lost). */
  detachClient(connectionId: string, nodeId: string): void;
  /** Ends everything shared with a node that stopped heart-beating. */
  nodeLost(nodeId: string): void;
}

export interface ReplyPathOptions {
  nodeId: string;
  /** How often `tick` runs: calls older than this are checked. */
  intervalMs: number;
  publish(nodeId: string, envelope: Envelope): Promise<void>;
  /** Whether the node still heart-beats; undefined when that cannot be told now. */
  isAlive(nodeId: string): Promise<boolean | undefined>;
  routes: ReplyPathRoutes;
  logger: LeveledLogger;
}

const LOST =
  "Link to the browser's instance lost: the browser's answer to this call did not come back through Redis (a Redis " +
  'connection dropped on the way). The call may have run: check the page (getTabs) before calling again';
const SILENT = (ms: number) =>
  `Link to the browser's instance lost: that proxy instance has not confirmed this call for ${ms} ms (Redis ` +
  'unreachable there, or the instance stalled). The call may have run: check the page (getTabs) before calling again';

interface CallsCheck {
  rid: string;
  calls: WaitingCall[];
  sentAt: number;
}

/**
 * Liveness of the reply path between nodes (issue 39 Q2, Q7), checked from both ends at every tick:
 * - the caller's node asks the browser's node which of its older calls it still holds. Replies and the answer
 *   leave that node in order on one Redis connection, so a call neither held nor answered when the answer comes was
 *   lost (the call on its way there, or its reply on the way back): it fails at once with -32011, instead of
 *   waiting for the call time-out and blaming the browser. No answer within five ticks fails the checked calls too.
 * - the browser's node asks each client node, every few ticks, which attached connections it still holds, and
 *   detaches the rest: a `detach` lost in a Redis drop leaves no phantom client.
 */
export class ReplyPathChecks {
  private readonly callChecks = new Map<string, CallsCheck>();
  /** Since when a check to a node could not even be published. */
  private readonly unpublishedSince = new Map<string, number>();
  private readonly clientChecks = new Map<string, { nodeId: string; connectionIds: string[] }>();
  private readonly answerTimeoutMs: number;

  constructor(private readonly options: ReplyPathOptions) {
    // Past a dead node's heartbeat TTL (3 intervals): a silent node that died is then told apart (silent()).
    this.answerTimeoutMs = options.intervalMs * 5;
  }

  checkCalls(): void {
    const now = performance.now();
    const waiting = this.options.routes.callsWaiting(now - this.options.intervalMs, MAX_CHECKED);
    for (const nodeId of [...this.callChecks.keys(), ...this.unpublishedSince.keys()]) {
      if (!waiting.has(nodeId)) this.forget(nodeId);
    }
    for (const [nodeId, calls] of waiting) {
      const pending = this.callChecks.get(nodeId);
      if (pending && now - pending.sentAt < this.answerTimeoutMs) continue;
      if (pending) {
        this.callChecks.delete(nodeId);
        this.silent(nodeId, pending.calls, Math.round(now - pending.sentAt));
        continue;
      }
      const silentSince = this.unpublishedSince.get(nodeId);
      if (silentSince !== undefined && now - silentSince >= this.answerTimeoutMs) {
        this.unpublishedSince.delete(nodeId);
        this.silent(nodeId, calls, Math.round(now - silentSince));
        continue;
      }
      const check: CallsCheck = { rid: crypto.randomUUID(), calls, sentAt: now };
      this.callChecks.set(nodeId, check);
      this.options.publish(nodeId, { t: 'calls-check', from: this.options.nodeId, rid: check.rid, calls }).then(
        () => this.unpublishedSince.delete(nodeId),
        () => {
          // Not even sent: no answer will come. Checked again at the next tick, failed once this lasts.
          if (this.callChecks.get(nodeId) === check) this.callChecks.delete(nodeId);
          if (!this.unpublishedSince.has(nodeId)) this.unpublishedSince.set(nodeId, check.sentAt);
        },
      );
    }
  }

  callsHeld(envelope: Extract<Envelope, { t: 'calls-held' }>): void {
    const check = this.callChecks.get(envelope.from);
    if (!check || check.rid !== envelope.rid) return;
    this.callChecks.delete(envelope.from);
    const held = new Set(envelope.held);
    const lost = check.calls.filter((call) => !held.has(call.id));
    if (lost.length > 0) this.fail(envelope.from, lost, LOST);
  }

  checkClients(): void {
    for (const [nodeId, connectionIds] of this.options.routes.remoteClients()) {
      const rid = crypto.randomUUID();
      const checked = connectionIds.slice(0, MAX_CHECKED);
      this.clientChecks.set(rid, { nodeId, connectionIds: checked });
      const envelope: Envelope = { t: 'clients-check', from: this.options.nodeId, rid, connectionIds: checked };
      this.options.publish(nodeId, envelope).catch(() => this.clientChecks.delete(rid));
    }
    // An answer that never comes (the node died: liveness ends its clients) must not keep its check forever.
    if (this.clientChecks.size > 1_000) this.clientChecks.clear();
  }

  clientsHeld(envelope: Extract<Envelope, { t: 'clients-held' }>): void {
    const check = this.clientChecks.get(envelope.rid);
    if (!check || check.nodeId !== envelope.from) return;
    this.clientChecks.delete(envelope.rid);
    const held = new Set(envelope.held);
    const phantoms = check.connectionIds.filter((connectionId) => !held.has(connectionId));
    for (const connectionId of phantoms) this.options.routes.detachClient(connectionId, envelope.from);
    if (phantoms.length > 0) {
      this.options.logger.info('cluster.phantom_clients_detached', { node: envelope.from, count: phantoms.length });
    }
  }

  /**
   * A node that died is reported as gone (its connections end, -32009); one that lives but is silent, here. While
   * liveness cannot be told (our own link came back moments ago), the calls wait for the next check: liveness
   * gives its verdict within a heartbeat TTL and 2 s.
   */
  private silent(nodeId: string, calls: WaitingCall[], ms: number): void {
    this.options.isAlive(nodeId).then(
      (alive) => {
        if (alive === false) this.options.routes.nodeLost(nodeId);
        else if (alive === true) this.fail(nodeId, calls, SILENT(ms));
      },
      () => undefined,
    );
  }

  private fail(nodeId: string, calls: WaitingCall[], message: string): void {
    let failed = 0;
    try {
      for (const call of calls) if (this.options.routes.failCall(call, nodeId, message)) failed++;
    } catch (error) {
      this.options.logger.error('cluster.fail_calls_failed', { error: toProtocolError(error).message });
    }
    if (failed > 0) this.options.logger.warn('cluster.reply_path_lost', { node: nodeId, calls: failed });
  }

  private forget(nodeId: string): void {
    this.callChecks.delete(nodeId);
    this.unpublishedSince.delete(nodeId);
  }
}
