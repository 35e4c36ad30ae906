/**
 * Coalesces the changes of one tick into at most one `tools/list_changed`, and only when the list
 * an agent would get now differs from the one last announced.
 */
export class ListAnnouncer {
  readonly #current: () => unknown;
  readonly #announce: () => void;
  #announced: string;
  #scheduled = false;

  constructor(current: () => unknown, announce: () => void) {
    this.#current = current;
    this.#announce = announce;
    this.#announced = JSON.stringify(current());
  }

  schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      const signature = JSON.stringify(this.#current());
      if (signature === this.#announced) return;
      this.#announced = signature;
      this.#announce();
    });
  }
}
