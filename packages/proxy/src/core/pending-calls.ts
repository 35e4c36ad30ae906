import { ErrorCode, type JsonRpcId, PendingRequests, ProtocolError, toProtocolError } from '@tabmcp/protocol';
import type { CallOutcome } from './session';

/** Sends a forwarded call's outcome to the client, under the client's own id. */
type Answer = (id: JsonRpcId, outcome: CallOutcome) => void;

/**
 * One MCP client's forwarded calls still waiting for the extension, keyed by mapped id. The client's
 * original id (type preserved) rides along with each wait; PendingRequests owns the timeout, and its
 * callbacks answer synchronously, so replies leave in the order they arrive.
 */
export class PendingCalls {
  private readonly requests = new PendingRequests<CallOutcome>();
  /** When each call was sent (performance.now()), in that order: the reply path's check asks about the old ones. */
  private readonly sentAt = new Map<string, number>();

  constructor(
    private readonly timeoutMs: number,
    private readonly answer: Answer,
  ) {}

  get size(): number {
    return this.requests.size;
  }

  has(mappedId: string): boolean {
    return this.requests.has(mappedId);
  }

  add(mappedId: string, id: JsonRpcId): void {
    this.sentAt.set(mappedId, performance.now());
    this.requests.track(
      mappedId,
      'client',
      this.timeoutMs,
      () => 'The extension',
      {
        resolve: (outcome) => {
          this.sentAt.delete(mappedId);
          this.answer(id, outcome);
        },
        reject: (error) => {
          this.sentAt.delete(mappedId);
          this.answer(id, { error: toProtocolError(error).toJSON() });
        },
      },
      {
        unref: true,
        timeoutError: () =>
          new ProtocolError(ErrorCode.RequestTimeout, `Extension did not answer within ${this.timeoutMs} ms`),
      },
    );
  }

  /** Mapped ids of the calls sent before `cutoff` (a performance.now() time) and still waiting, oldest first. */
  sentBefore(cutoff: number, max: number): string[] {
    const ids: string[] = [];
    for (const [mappedId, at] of this.sentAt) {
      if (at >= cutoff || ids.length >= max) break;
      ids.push(mappedId);
    }
    return ids;
  }

  /** False when nobody waits for `mappedId` (late, timed out, or never asked): the reply is dropped. */
  settle(mappedId: string, outcome: CallOutcome): boolean {
    return this.requests.resolve(mappedId, outcome);
  }

  fail(mappedId: string, code: number, message: string): boolean {
    return this.requests.reject(mappedId, new ProtocolError(code, message));
  }

  /** Answers every call in flight with an error that says why, under its code (errors.ts). */
  failAll(code: number, message: string): number {
    return this.requests.rejectAll(() => new ProtocolError(code, message));
  }
}
