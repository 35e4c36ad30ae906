/** Numbers a domain has handed out are remembered for this many tabs, oldest forgotten first. */
const REMEMBERED_TABS = 5_000;

/**
 * The N of `tab<N>` in hub names. A tab keeps its number for its whole life (a reload or a trip to
 * another site and back gives it the same one), and a number is never handed to another tab of the
 * domain: an agent may still hold a name with it, and that name must not run in another tab
 * (issue 27 H1). Numbers therefore only grow, per domain, while the hub runs.
 */
export class TabNumbers {
  readonly #next = new Map<string, number>();
  readonly #given = new Map<string, number>();

  /** The tab's number in `domain`: the one it had, or the next never given. */
  numberFor(domain: string | undefined, tabId: number): number {
    const key = keyOf(domain, tabId);
    const given = this.#given.get(key);
    if (given !== undefined) return given;
    const number = this.#next.get(domain ?? '') ?? 1;
    this.#remember(domain, key, number);
    return number;
  }

  /**
   * A tab restored from storage keeps its stored number unless another tab of the domain holds it
   * already (it registered first); either way the number it ends up with is returned.
   */
  adopt(domain: string | undefined, tabId: number, stored: number): number {
    const key = keyOf(domain, tabId);
    const holder = [...this.#given].find(
      ([other, number]) => number === stored && other !== key && sameDomain(other, domain),
    );
    if (holder) return this.numberFor(domain, tabId);
    this.#remember(domain, key, stored);
    return stored;
  }

  #remember(domain: string | undefined, key: string, number: number): void {
    this.#given.delete(key);
    this.#given.set(key, number);
    const next = this.#next.get(domain ?? '') ?? 1;
    if (number >= next) this.#next.set(domain ?? '', number + 1);
    if (this.#given.size > REMEMBERED_TABS) {
      const oldest = this.#given.keys().next().value;
      if (oldest !== undefined) this.#given.delete(oldest);
    }
  }
}

function keyOf(domain: string | undefined, tabId: number): string {
  return `${domain ?? ''}\u0000${tabId}`;
}

function sameDomain(key: string, domain: string | undefined): boolean {
  return key.slice(0, key.indexOf('\u0000')) === (domain ?? '');
}
