/**
 * Coalesces the changes of one tick into at most one `tools/list_changed`, and only when the list
 * an agent would get now differs from the one last announced.
 */
export class ListAnnouncer {
  readonly #current: () => unknown;
  readonly #announce: () => void;
  #announced: string;
  #scheduled = false;
  #held = 0;
  #pending = false;

  constructor(current: () => unknown, announce: () => void) {
    this.#current = current;
    this.#announce = announce;
    this.#announced = JSON.stringify(current());
  }

  /**
   * Runs `work` as one transition: what changes while it runs (a tab created, then focused, each
   * reported by its own event) is announced once, when it ends.
   */
  async transition<T>(work: () => Promise<T>): Promise<T> {
    this.#held++;
    try {
      return await work();
    } finally {
      this.#held--;
      if (this.#held === 0 && this.#pending) {
        this.#pending = false;
        this.schedule();
      }
    }
  }

  schedule(): void {
    if (this.#held > 0) {
      this.#pending = true;
      return;
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#announceIfChanged();
    });
  }

  /**
   * Announces a change at once rather than at the end of the tick: the answer that made it is sent
   * next, and a client that re-lists on the notification must have the new list when it reads the
   * answer. Within a transition it waits for the transition's end, which also comes before the answer.
   */
  now(): void {
    if (this.#held > 0) this.#pending = true;
    else this.#announceIfChanged();
  }

  #announceIfChanged(): void {
    const signature = JSON.stringify(this.#current());
    if (signature === this.#announced) return;
    this.#announced = signature;
    this.#announce();
  }
}
