import { ErrorCode, ProtocolError } from './errors';

interface Entry<T> {
  resolve(value: T): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
  group: string | number;
}

/**
 * Requests waiting for an answer across a boundary. Every wait has a timeout, and a whole group
 * (a tab, a socket) can be rejected at once when its channel goes away, so no caller hangs.
 */
export class PendingRequests<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #counter = 0;

  nextId(prefix = 'r'): string {
    this.#counter += 1;
    return `${prefix}${this.#counter}`;
  }

  get size(): number {
    return this.#entries.size;
  }

  wait(id: string, group: string | number, timeoutMs: number, describe: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#entries.delete(id);
        reject(new ProtocolError(ErrorCode.RequestTimeout, `${describe()} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#entries.set(id, { resolve, reject, timer, group });
    });
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

  #take(id: string): Entry<T> | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.#entries.delete(id);
    return entry;
  }
}
