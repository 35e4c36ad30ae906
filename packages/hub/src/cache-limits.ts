// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { serializedSize, Tool } from '@tabmcp/protocol';
import * as z from 'zod/mini';
import { StoredCachedTool, StoredTab } from './store';

/**
 * Bounds on cached tools (`annotations.cache`), which outlive their tabs and are persisted. Only
 * allowed sites get cached at all; these bounds keep even an allowed but hostile site from filling
 * storage or slowing every save. The same trim runs on save and on load, and it trims, never
 * rejects: state written by an older build, or by a page that got past an older limit, still loads.
 */
export interface CacheLimits {
  count: number;
  perDomain: number;
  bytes: number;
  maxAgeMs: number;
}

export const CACHE_LIMITS: CacheLimits = {
  count: 500,
  perDomain: 50,
  bytes: 1024 * 1024,
  maxAgeMs: 30 * 24 * 3_600_000,
};

/** Newest first, each domain and the whole within its bounds; older entries are the ones dropped. */
export function trimCache(
  entries: Iterable<StoredCachedTool>,
  now: number,
  limits: CacheLimits = CACHE_LIMITS,
): StoredCachedTool[] {
  const newestFirst = [...entries].sort((a, b) => b.savedAt - a.savedAt);
  const perDomain = new Map<string, number>();
  const kept: StoredCachedTool[] = [];
  let bytes = 0;
  for (const entry of newestFirst) {
    if (kept.length >= limits.count) break;
    if (now - entry.savedAt > limits.maxAgeMs) continue;
    const inDomain = perDomain.get(entry.domain) ?? 0;
    if (inDomain >= limits.perDomain) continue;
    const size = serializedSize(entry);
    if (bytes + size > limits.bytes) continue;
    perDomain.set(entry.domain, inDomain + 1);
    bytes += size;
    kept.push(entry);
  }
  return kept;
}

const SiteEntry = z.object({
  site: z.string().check(z.minLength(1), z.maxLength(253)),
  decision: z.enum(['allow', 'block']),
});
export type SiteEntry = z.infer<typeof SiteEntry>;

export interface ReadSnapshot {
  tabs: StoredTab[];
  cached: StoredCachedTool[];
  sites: SiteEntry[];
  /** Entries that did not parse or did not fit, for the log. */
  dropped: number;
}

const MAX_STORED_TABS = 5_000;
const MAX_SITES = 10_000;

/**
 * Reads stored hub state entry by entry: a bad or surplus entry is dropped alone, so one planted
 * tool can never take the user's site decisions or the other entries with it.
 */
export function readSnapshot(raw: unknown, now: number): ReadSnapshot {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const tabs = each(record.tabs, StoredTab, MAX_STORED_TABS);
  const cachedRaw = each(record.cached, StoredCachedTool, Number.POSITIVE_INFINITY);
  const cached = trimCache(
    cachedRaw.items.filter((entry) => Tool.safeParse(entry.tool).success),
    now,
  );
  const sites = readSites(record.sites);
  const dropped = tabs.dropped + cachedRaw.dropped + (cachedRaw.items.length - cached.length) + sites.dropped;
  return { tabs: tabs.items, cached, sites: sites.items, dropped };
}

export function readSites(raw: unknown): { items: SiteEntry[]; dropped: number } {
  return each(raw, SiteEntry, MAX_SITES);
}

function each<S extends z.ZodMiniType>(raw: unknown, schema: S, max: number): { items: z.infer<S>[]; dropped: number } {
  if (!Array.isArray(raw)) return { items: [], dropped: 0 };
  const items: z.infer<S>[] = [];
  let dropped = 0;
  for (const value of raw) {
    const parsed = items.length < max ? schema.safeParse(value) : undefined;
    if (parsed?.success) items.push(parsed.data);
    else dropped += 1;
  }
  return { items, dropped };
}
