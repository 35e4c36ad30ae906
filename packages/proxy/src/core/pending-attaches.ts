import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import type { AttachOutcome } from './session';

interface Waiting {
  resolve(outcome: AttachOutcome): void;
  reject(error: ProtocolError): void;
  timer: NodeJS.Timeout;
}

/** Connects that wait for another node to attach the client to its extension, each with a deadline. */
export class PendingAttaches {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly timeoutMs: number) {}

  /** Registers a wait under a fresh request id; `send` publishes the attach and may reject at once. */
  start(
    send: (rid: string) => Promise<void>,
    timeoutMessage: string,
    unreachableMessage: string,
  ): Promise<AttachOutcome> {
    const rid = crypto.randomUUID();
    return new Promise<AttachOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(rid);
        reject(new ProtocolError(ErrorCode.ServerError, timeoutMessage));
      }, this.timeoutMs);
      timer.unref?.();
      this.waiting.set(rid, { resolve, reject, timer });
      send(rid).catch(() => {
        clearTimeout(timer);
        this.waiting.delete(rid);
        reject(new ProtocolError(ErrorCode.ServerError, unreachableMessage));
      });
    });
  }

  /** False when nobody waits any more (timed out): the caller then undoes a successful attach. */
  settle(rid: string, outcome: AttachOutcome | ProtocolError): boolean {
    const waiting = this.waiting.get(rid);
    if (!waiting) return false;
    clearTimeout(waiting.timer);
    this.waiting.delete(rid);
    if (outcome instanceof ProtocolError) waiting.reject(outcome);
    else waiting.resolve(outcome);
    return true;
  }

  rejectAll(message: string): void {
    for (const [rid, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new ProtocolError(ErrorCode.ServerError, message));
      this.waiting.delete(rid);
    }
  }
}
