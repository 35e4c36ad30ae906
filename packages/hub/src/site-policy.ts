import type { SiteAccess } from '@tabmcp/protocol';

export type SiteDecision = 'allow' | 'block';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The last URL asked about and its site: every call to a tab asks for its tab's site, and parsing
 * the same URL again was most of the hub's own time on a page tool call.
 */
let lastAsked: { url: string; site: string | undefined } | undefined;

/** The site a URL belongs to for permissions: its host name (all ports and schemes of a host together). */
export function siteOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (lastAsked?.url === url) return lastAsked.site;
  const site = parseSite(url);
  lastAsked = { url, site };
  return site;
}

function parseSite(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function isLoopback(site: string): boolean {
  return LOOPBACK.has(site) || site.endsWith('.localhost');
}

/**
 * Which sites' tools may reach agents. Loopback is allowed unless the user blocked it (so the
 * local demos and tests run); every other site waits for the user's allow.
 */
export class SitePolicy {
  readonly #decisions = new Map<string, SiteDecision>();

  constructor(decisions: Iterable<[string, SiteDecision]> = []) {
    for (const [site, decision] of decisions) this.#decisions.set(site.toLowerCase(), decision);
  }

  access(url: string | undefined): SiteAccess {
    const site = siteOf(url);
    if (site === undefined) return 'blocked';
    const decision = this.#decisions.get(site);
    if (decision) return decision === 'allow' ? 'allowed' : 'blocked';
    return isLoopback(site) ? 'allowed' : 'pending';
  }

  /** Returns whether anything changed. */
  set(site: string, decision: SiteDecision | undefined): boolean {
    const key = site.toLowerCase();
    if (this.#decisions.get(key) === decision) return false;
    if (decision) this.#decisions.set(key, decision);
    else this.#decisions.delete(key);
    return true;
  }

  entries(): Array<{ site: string; decision: SiteDecision }> {
    return [...this.#decisions].map(([site, decision]) => ({ site, decision }));
  }
}
