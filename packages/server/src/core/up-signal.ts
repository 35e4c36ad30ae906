/** Lets callers wait, with a timeout, until a browser link is up. */
export class UpSignal {
  readonly #waiters = new Set<(up: boolean) => void>();

  /** Resolves true at once when `isUp`, else at the next `notifyUp`, or false after `timeoutMs`. */
  wait(isUp: boolean, timeoutMs: number): Promise<boolean> {
    if (isUp) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (up: boolean) => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve(up);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.#waiters.add(done);
    });
  }

  notifyUp(): void {
    for (const waiter of [...this.#waiters]) waiter(true);
  }
}
