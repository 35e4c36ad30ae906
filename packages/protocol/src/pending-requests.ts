import { ErrorCode, ProtocolError } from './errors';
import { abortError } from './with-timeout';

/** How one request waits, beyond its timeout. */
export interface PendingOptions {
  /** Aborting it rejects the wait at once with the signal's reason and forgets the request. */
  signal?: AbortSignal;
  /** The error a timeout rejects with; by default a RequestTimeout naming `describe()`. */
  timeoutError?: () => Error;
  /** In Node: the timer alone does not keep the process alive. */
  unref?: boolean;
}

/** Called once, when the answer arrives, the wait times out, is aborted or is rejected. */
export interface Settle<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

// Most waits have no signal: they share this instead of a closure each (the call path is hot).
const NOTHING_TO_STOP = () => {};

interface Entry<T> extends Settle<T> {
  timer: ReturnType<typeof setTimeout>;
  group: string | number;
  stopListening(): void;
}

/**
 * Requests waiting for an answer across a boundary: the one request/response engine of tabmcp
 * (hub, link endpoint, proxy RPC, tab client, the proxy's relay). Every wait has a timeout, may
 * be aborted, and a whole group (a tab, a socket) can be rejected at once when its channel goes
 * away, so no caller hangs; after `close` every new wait is refused with the closing error.
 */
export class PendingRequests<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #counter = 0;
  #closed: (() => Error) | undefined;

  nextId(prefix = 'r'): string {
    this.#counter += 1;
    return `${prefix}${this.#counter}`;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** The group a waiting request was sent to (a tab, a socket), so an answer from elsewhere is refused. */
  groupOf(id: string): string | number | undefined {
    return this.#entries.get(id)?.group;
  }

  wait(
    id: string,
    group: string | number,
    timeoutMs: number,
    describe: () => string,
    options: PendingOptions = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.track(id, group, timeoutMs, describe, { resolve, reject }, options),
    );
  }

  /**
   * `wait` with callbacks instead of a promise, for a relay whose answers must leave in the order
   * they arrive: the callback runs synchronously, where a promise would defer it a microtask.
   */
  track(
    id: string,
    group: string | number,
    timeoutMs: number,
    describe: () => string,
    settle: Settle<T>,
    options: PendingOptions = {},
  ): void {
    const refusal = this.#refusal(id, options.signal);
    if (refusal) {
      settle.reject(refusal);
      return;
    }
    const timer = setTimeout(() => {
      const entry = this.#take(id);
      entry?.reject(
        options.timeoutError?.() ??
          new ProtocolError(ErrorCode.RequestTimeout, `${describe()} did not answer within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    if (options.unref) (timer as { unref?: () => void }).unref?.();
    const { signal } = options;
    let stopListening = NOTHING_TO_STOP;
    if (signal) {
      const onAbort = () => this.reject(id, abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      stopListening = () => signal.removeEventListener('abort', onAbort);
    }
    this.#entries.set(id, { resolve: settle.resolve, reject: settle.reject, timer, group, stopListening });
  }

  resolve(id: string, value: T): boolean {
    const entry = this.#take(id);
    entry?.resolve(value);
    return entry !== undefined;
  }

  reject(id: string, error: Error): boolean {
    const entry = this.#take(id);
    entry?.reject(error);
    return entry !== undefined;
  }

  rejectGroup(group: string | number, error: () => Error): number {
    let count = 0;
    for (const [id, entry] of this.#entries) {
      if (entry.group !== group) continue;
      this.#take(id);
      entry.reject(error());
      count += 1;
    }
    return count;
  }

  rejectAll(error: () => Error): number {
    let count = 0;
    for (const id of [...this.#entries.keys()]) {
      if (this.reject(id, error())) count += 1;
    }
    return count;
  }

  /** Rejects every waiting request with `error()`, and every later one at once: the channel is gone for good. */
  close(error: () => Error): number {
    this.#closed ??= error;
    return this.rejectAll(this.#closed);
  }

  #refusal(id: string, signal: AbortSignal | undefined): Error | undefined {
    if (this.#closed) return this.#closed();
    if (signal?.aborted) return abortError(signal);
    // A second wait under a live id would take over the first one's answer and leave it hanging.
    if (this.#entries.has(id))
      return new ProtocolError(ErrorCode.InvalidRequest, `Request id ${id} is already waiting`);
    return undefined;
  }

  #take(id: string): Entry<T> | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    entry.stopListening();
    this.#entries.delete(id);
    return entry;
  }
}
