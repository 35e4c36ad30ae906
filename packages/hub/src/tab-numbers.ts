/** Numbers a domain has handed out are remembered for this many tabs, oldest forgotten first. */
const REMEMBERED_TABS = 5_000;
/** Domains whose next number is kept (and persisted); the one unused longest is forgotten first. */
const REMEMBERED_DOMAINS = 5_000;

/** Per domain, the next number never given: what a restarted worker must not count below. */
export type NextTabNumbers = Record<string, number>;

/** A tab the hub holds now, in the domain it is in now. */
export interface LiveTab {
  tabId: number;
  domain: string | undefined;
}

/**
 * The N of `tab<N>` in hub names. A tab keeps its number for its whole life (a reload or a trip to
 * another site and back gives it the same one), and a number is never handed to another tab of the
 * domain: an agent may still hold a name with it, and that name must not run in another tab
 * (issue 27 H1). Numbers therefore only grow, per domain; the counters outlive a worker restart through
 * `onGrow` (the extension keeps them in chrome.storage.session) and `resume`. What is remembered is
 * capped, but never what a live tab needs: its domain's counter and its own number (issue 39 Q6).
 */
export class TabNumbers {
  readonly #next = new Map<string, number>();
  readonly #given = new Map<string, number>();
  readonly #onGrow: (next: NextTabNumbers) => void;
  readonly #liveTabs: () => Iterable<LiveTab>;

  constructor(onGrow: (next: NextTabNumbers) => void = () => {}, liveTabs: () => Iterable<LiveTab> = () => []) {
    this.#onGrow = onGrow;
    this.#liveTabs = liveTabs;
  }

  /** Counters a previous worker saved: numbers below them were given and are never given again. */
  resume(saved: NextTabNumbers): void {
    for (const [domain, next] of Object.entries(saved)) {
      if (Number.isSafeInteger(next) && next > (this.#next.get(domain) ?? 1)) this.#next.set(domain, next);
    }
    this.#forgetCounters(undefined);
  }

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
    if (number >= next) {
      this.#next.delete(domain ?? '');
      this.#next.set(domain ?? '', number + 1);
      this.#forgetCounters(domain ?? '');
      this.#onGrow(Object.fromEntries(this.#next));
    }
    this.#forgetNumbers(key);
  }

  /** Past the cap, the counters of domains unused longest and with no live tab go; `keep` is in use now. */
  #forgetCounters(keep: string | undefined): void {
    if (this.#next.size <= REMEMBERED_DOMAINS) return;
    const live = new Set([...this.#liveTabs()].map((tab) => tab.domain ?? ''));
    for (const domain of this.#next.keys()) {
      if (this.#next.size <= REMEMBERED_DOMAINS) return;
      if (domain !== keep && !live.has(domain)) this.#next.delete(domain);
    }
  }

  /** Past the cap, the numbers of tabs given longest ago and no longer in that domain go; `keep` was just given. */
  #forgetNumbers(keep: string): void {
    if (this.#given.size <= REMEMBERED_TABS) return;
    const live = new Set([...this.#liveTabs()].map((tab) => keyOf(tab.domain, tab.tabId)));
    for (const key of this.#given.keys()) {
      if (this.#given.size <= REMEMBERED_TABS) return;
      if (key !== keep && !live.has(key)) this.#given.delete(key);
    }
  }
}

function keyOf(domain: string | undefined, tabId: number): string {
  return `${domain ?? ''}\u0000${tabId}`;
}

function sameDomain(key: string, domain: string | undefined): boolean {
  return key.slice(0, key.indexOf('\u0000')) === (domain ?? '');
}
