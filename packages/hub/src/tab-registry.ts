import type { ContentToBackground, Logger, Tool } from '@tabmcp/protocol';
import { trimCache } from './cache-limits';
import { domainOf } from './domain';
import { SitePolicy, siteOf } from './site-policy';
import type { HubSnapshot, StoredCachedTool, StoredTab } from './store';
import { type NextTabNumbers, TabNumbers } from './tab-numbers';
import { cacheKey, hasTool, type TabTools } from './tab-tools';
import { checkTools, isCached } from './tool-check';
import type { HubViewState } from './view';

export type ToolListMessage = Extract<ContentToBackground, { method: 'browser/registerTools' | 'browser/updateTools' }>;

export interface Registration {
  entry: TabTools;
  accepted: number;
  /** At most a few reasons and a count, for the audit log. */
  rejected: Array<{ name: string; reason: string }>;
  /** The same tools again (a re-registration after a worker restart): nothing visible changed. */
  unchanged: boolean;
}

/**
 * What the hub knows, and nothing about how it is told or asked: each tab's tools with its number,
 * the cached tools that outlive their tabs, and the user's site decisions.
 */
export class TabRegistry {
  readonly tabs = new Map<number, TabTools>();
  readonly cached = new Map<string, StoredCachedTool>();
  readonly policy = new SitePolicy();
  readonly #numbers: TabNumbers;
  readonly #now: () => number;
  readonly #log: Logger;

  constructor(now: () => number, log: Logger, onTabNumbersGrow?: (next: NextTabNumbers) => void) {
    this.#now = now;
    this.#log = log;
    this.#numbers = new TabNumbers(onTabNumbersGrow, () => this.tabs.values());
  }

  /** False from `awaitTabNumbers` until `numberWaitingTabs`: tabs that register meanwhile get no number. */
  get tabNumbersKnown(): boolean {
    return this.#numbersKnown;
  }

  #numbersKnown = true;

  /**
   * A restore has begun: until the stored counters are read, no number is given. A number given now
   * could be one a closed tab had, whose name an agent may still hold (issue 39 Q5).
   */
  awaitTabNumbers(): void {
    this.#numbersKnown = false;
  }

  /** Takes up the tab-number counters a previous worker saved (anything not a counter is ignored). */
  resumeTabNumbers(saved: unknown): void {
    if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return;
    const counters: NextTabNumbers = {};
    for (const [domain, next] of Object.entries(saved)) if (typeof next === 'number') counters[domain] = next;
    this.#numbers.resume(counters);
  }

  /** A tab that registered while the counters loaded takes the number stored for it, unless another holds it. */
  adoptNumber(stored: StoredTab): boolean {
    const tab = this.tabs.get(stored.tabId);
    if (tab === undefined || tab.ordinal !== undefined || tab.domain !== stored.domain) return false;
    tab.ordinal = this.#numbers.adopt(stored.domain, stored.tabId, stored.ordinal);
    return true;
  }

  /** The counters are known (or lost for good): every tab still waiting gets its number; returns how many. */
  numberWaitingTabs(): number {
    this.#numbersKnown = true;
    let numbered = 0;
    for (const tab of this.tabs.values()) {
      if (tab.ordinal !== undefined) continue;
      tab.ordinal = this.#numbers.numberFor(tab.domain, tab.tabId);
      numbered += 1;
    }
    return numbered;
  }

  register(tabId: number, message: ToolListMessage, senderUrl: string | undefined): Registration {
    const previous = this.tabs.get(tabId);
    const isRegister = message.method === 'browser/registerTools';
    const url = senderUrl ?? (isRegister ? message.params.tabUrl : undefined) ?? previous?.url;
    const domain = domainOf(url);
    const { accepted, rejected } = checkTools(message.params.tools);
    const sameDomain = previous !== undefined && previous.domain === domain;
    const unchanged = sameDomain && previous.url === url && sameTools(previous.tools, accepted);
    const entry: TabTools = {
      tabId,
      url,
      domain,
      ordinal: sameDomain ? previous.ordinal : this.#numbersKnown ? this.#numbers.numberFor(domain, tabId) : undefined,
      source: message.params.source ?? previous?.source,
      tools: unchanged ? previous.tools : accepted,
      updatedAt: this.#now(),
      lastSeen: this.#now(),
      capabilities: (isRegister ? message.params.capabilities : undefined) ?? previous?.capabilities,
      connected: true,
    };
    this.tabs.set(tabId, entry);
    if (message.params.extensions) {
      // docs/requirements.md#hub reserves `extensions` for fields no version defines yet: none is read, but none vanishes unseen.
      this.#log('extensions.ignored', { tabId, keys: Object.keys(message.params.extensions).slice(0, 10) });
    }
    if (entry.source !== 'dom') this.#forgetWithdrawn(entry, previous);
    this.cacheTools(entry);
    return { entry, accepted: accepted.length, rejected: summarize(rejected), unchanged };
  }

  /**
   * A tab from storage, unless its number went to a tab that registered first. A restored tab is
   * not connected until its content script registers again.
   */
  adopt(stored: StoredTab, lastSeen: number): void {
    const ordinal = this.#numbers.adopt(stored.domain, stored.tabId, stored.ordinal);
    this.tabs.set(stored.tabId, {
      ...stored,
      ordinal,
      source: stored.source,
      lastSeen,
      capabilities: stored.capabilities,
      connected: false,
    });
  }

  /** Only allowed sites get cached tools (they are persisted and outlive the tab), within CACHE_LIMITS. */
  cacheTools(tab: TabTools): void {
    const { domain, url } = tab;
    if (!domain || !url || this.policy.access(url) !== 'allowed') return;
    let added = false;
    for (const tool of tab.tools) {
      if (!isCached(tool)) continue;
      this.cached.set(cacheKey(domain, tool.name), { domain, url, tool, savedAt: this.#now() });
      added = true;
    }
    if (!added) return;
    const kept = trimCache(this.cached.values(), this.#now());
    if (kept.length === this.cached.size) return;
    this.#log('cache.trimmed', { dropped: this.cached.size - kept.length });
    this.cached.clear();
    for (const cached of kept) this.cache(cached);
  }

  cache(entry: StoredCachedTool): void {
    this.cached.set(cacheKey(entry.domain, entry.tool.name), entry);
  }

  /**
   * A page that lists its tools again without a cached one has withdrawn it, so its cached copy
   * (and its listing) goes too: the tab that offered it, or a new load of the page it was cached
   * from. Derived (`dom`) lists are left out: they say nothing about the page's own tools.
   */
  #forgetWithdrawn(tab: TabTools, previous: TabTools | undefined): void {
    const page = pageOf(tab.url);
    for (const [key, cached] of this.cached) {
      if (cached.domain !== tab.domain || hasTool(tab, cached.tool.name)) continue;
      const offeredHere = previous?.domain === tab.domain && hasTool(previous, cached.tool.name);
      if (!offeredHere && (page === undefined || pageOf(cached.url) !== page)) continue;
      this.cached.delete(key);
      this.#log('cache.withdrawn', { tabId: tab.tabId, domain: cached.domain, tool: cached.tool.name });
    }
  }

  forgetCached(site: string): void {
    for (const [key, cached] of this.cached) if (siteOf(cached.url) === site) this.cached.delete(key);
  }

  viewState(activeTabId: number | undefined, canCache: boolean): HubViewState {
    return {
      tabs: [...this.tabs.values()],
      cached: [...this.cached.values()],
      siteAccess: (url) => this.policy.access(url),
      activeTabId,
      canCache,
    };
  }

  snapshot(): HubSnapshot {
    const tabs: StoredTab[] = [];
    for (const tab of this.tabs.values()) {
      // A tab still waiting for its number is saved once it has one (the restore's end saves).
      if (tab.domain === undefined || tab.url === undefined || tab.ordinal === undefined) continue;
      // A site not allowed keeps its tab number, but nothing it wrote reaches the disk: no tools, no
      // path or query (issue 26); its content script registers them again after a restart.
      const allowed = this.policy.access(tab.url) === 'allowed';
      tabs.push({
        tabId: tab.tabId,
        url: allowed ? tab.url : originOf(tab.url),
        domain: tab.domain,
        ordinal: tab.ordinal,
        ...(tab.source ? { source: tab.source } : {}),
        tools: allowed ? tab.tools : [],
        updatedAt: tab.updatedAt,
        // A connected tab is alive now; a restored one still waiting keeps what was stored.
        lastSeen: tab.connected ? this.#now() : tab.lastSeen,
        ...(tab.capabilities ? { capabilities: tab.capabilities } : {}),
      });
    }
    // The same limits as on load, so what is saved always loads whole.
    const cached = trimCache(this.cached.values(), this.#now());
    return { version: 1, tabs, cached, sites: this.policy.entries() };
  }
}

/** A page refusing thousands of tools gets a few reasons and a count, not thousands of log lines. */
function summarize(rejected: Array<{ name: string; reason: string }>): Array<{ name: string; reason: string }> {
  const shown = 10;
  if (rejected.length <= shown) return rejected;
  const rest = rejected.slice(shown);
  return [
    ...rejected.slice(0, shown),
    {
      name: `(${rest.length} more)`,
      reason: `${rejected.length} tools refused in all; the last: ${rest.at(-1)?.reason}`,
    },
  ];
}

/** A page as a cached tool remembers it: the same document whatever its query or fragment. */
function pageOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return undefined;
  }
}

function sameTools(a: Tool[], b: Tool[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

function originOf(url: string): string {
  try {
    return `${new URL(url).origin}/`;
  } catch {
    return '';
  }
}
