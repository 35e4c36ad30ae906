import type { Logger } from '@tabmcp/protocol';
import { readSites, readSnapshot } from './cache-limits';
import { domainOf } from './domain';
import type { HubStore } from './store';
import type { TabRegistry } from './tab-registry';

export type LiveTabs = ReadonlyArray<{ tabId: number; url: string | undefined }>;

/**
 * Holds tab messages while a restore runs and replays them in order once it ends, so a content
 * script that registers before storage has loaded finds its stored entry and keeps its number.
 */
export class RestoreGate {
  /** Tab messages that arrived while a restore was running. */
  #held: Array<() => void> | undefined;
  readonly #waitMs: number;
  readonly #log: Logger;

  constructor(waitMs: number, log: Logger) {
    this.#waitMs = waitMs;
    this.#log = log;
  }

  /** Handles a tab message now, or after the running restore. */
  run(handle: () => void): void {
    if (this.#held) this.#held.push(handle);
    else handle();
  }

  async during(restore: () => Promise<void>): Promise<void> {
    // A second restore while one runs shares its queue rather than strand it.
    const held = this.#held ?? [];
    this.#held = held;
    const release = () => {
      if (this.#held !== held) return;
      this.#held = undefined;
      for (const handle of held) handle();
    };
    // A storage that never answers must not hold every tab's tools back for good.
    const timer = setTimeout(() => {
      this.#log('restore.slow', {
        held: held.length,
        waitedMs: this.#waitMs,
        note: 'tabs are served by id now; their hub names wait for the stored tab numbers',
      });
      release();
    }, this.#waitMs);
    try {
      await restore();
    } finally {
      clearTimeout(timer);
      release();
    }
  }
}

export interface RestoreOptions {
  /** Stored tabs last seen alive longer ago than this are not restored. */
  staleTabMs: number;
  now: () => number;
  log: Logger;
  /** Called as each stored tab is taken back. */
  onTab(tabId: number): void;
}

/**
 * Puts back what a stopped worker had: site decisions, cached tools, and the stored tabs that are
 * still open on the same domain and were seen alive lately (not connected until they register
 * again). Returns how many tabs came back.
 */
export async function restoreInto(
  registry: TabRegistry,
  store: HubStore | undefined,
  liveTabs: LiveTabs,
  options: RestoreOptions,
): Promise<number> {
  const raw = await store?.load();
  const ownSites = await store?.loadSites?.();
  // Before any stored tab is adopted: a number given before the restart is never given again (issue 27 H1).
  registry.resumeTabNumbers(await store?.loadTabNumbers?.());
  const snapshot = readSnapshot(raw, options.now());
  // Decisions under their own key win; the snapshot's copy is for state saved before they had one.
  const sites = ownSites === undefined || ownSites === null ? snapshot.sites : readSites(ownSites).items;
  if (snapshot.dropped > 0) options.log('restore.trimmed', { dropped: snapshot.dropped });
  for (const { site, decision } of sites) registry.policy.set(site, decision);
  for (const cached of snapshot.cached) registry.cache(cached);
  const live = new Map(liveTabs.map((tab) => [tab.tabId, tab.url]));
  const now = options.now();
  let restored = 0;
  for (const stored of snapshot.tabs) {
    const liveUrl = live.get(stored.tabId);
    const lastSeen = stored.lastSeen ?? stored.updatedAt;
    // A content script that registered while a slow storage loaded is newer than the stored entry,
    // but the tab is the same: it takes its stored number (a tab id is never reused in a session).
    if (registry.adoptNumber(stored)) continue;
    if (registry.tabs.has(stored.tabId) || liveUrl === undefined || now - lastSeen > options.staleTabMs) continue;
    if (domainOf(liveUrl) !== stored.domain) continue;
    registry.adopt(stored, lastSeen);
    options.onTab(stored.tabId);
    restored += 1;
  }
  options.log('restore', { tabs: restored, cached: registry.cached.size, sites: sites.length });
  return restored;
}
