import type { BrowserCapabilities, SiteAccess, Tool } from '@tabmcp/protocol';
import { presentHubTool } from './descriptions';
import { originOfDomain } from './domain';
import type { StoredCachedTool } from './store';
import { cacheKey, hasTool, type TabTools } from './tab-tools';
import { isCached } from './tool-check';
import { hubToolName } from './tool-namer';

/** Where a hub name leads: a page tool of a domain, pinned to the tab that listed it. */
export interface Route {
  domain: string;
  toolName: string;
  /** Undefined for a cached tool with no open tab. */
  tabId: number | undefined;
}

/** What the view reads of a tab: no timestamps or connection state, so a list does not change with them. */
export type ViewTab = Pick<TabTools, 'tabId' | 'url' | 'domain' | 'ordinal' | 'tools' | 'capabilities'>;

/** Everything the hub's view depends on. */
export interface HubViewState {
  tabs: ReadonlyArray<ViewTab>;
  cached: ReadonlyArray<StoredCachedTool>;
  siteAccess(url: string | undefined): SiteAccess;
  activeTabId: number | undefined;
  /** The hub has a store and can open tabs: without both, a cached tool could not be kept or reopened. */
  canCache: boolean;
}

/** What the `all` view offers agents: hub-named tools, where each name routes, and the hub's capabilities. */
export interface HubView {
  tools: Tool[];
  routes: ReadonlyMap<string, Route>;
  capabilities: BrowserCapabilities;
}

/**
 * Every allowed tab's tools under hub names (by domain, then tab number), then the cached tools of
 * allowed sites that no listed tab offers. Names are unique across the list, so a tab's tools are
 * named before cached ones and keep their names when a cached copy appears.
 */
export function buildView(state: HubViewState): HubView {
  const taken = new Set<string>();
  const tools: Tool[] = [];
  const routes = new Map<string, Route>();
  // A tab without its number yet (a slow restore) is not named: a name now could be a closed tab's.
  const live = state.tabs
    .filter(
      (tab): tab is ViewTab & { ordinal: number } =>
        tab.domain !== undefined && tab.ordinal !== undefined && state.siteAccess(tab.url) === 'allowed',
    )
    .sort((a, b) => (a.domain === b.domain ? a.ordinal - b.ordinal : (a.domain ?? '') < (b.domain ?? '') ? -1 : 1));
  for (const tab of live) {
    const domain = tab.domain as string;
    const origin = originOfDomain(domain, tab.url);
    const active = tab.tabId === state.activeTabId;
    for (const tool of tab.tools) {
      const name = hubToolName(domain, tab.ordinal, tool.name, taken);
      tools.push(presentHubTool(tool, name, { origin, ordinal: tab.ordinal, active }));
      routes.set(name, { domain, toolName: tool.name, tabId: tab.tabId });
    }
  }
  const cached = [...state.cached].sort((a, b) =>
    cacheKey(a.domain, a.tool.name).localeCompare(cacheKey(b.domain, b.tool.name)),
  );
  for (const entry of cached) {
    if (state.siteAccess(entry.url) !== 'allowed') continue;
    const name = hubToolName(entry.domain, undefined, entry.tool.name, taken);
    routes.set(name, { domain: entry.domain, toolName: entry.tool.name, tabId: undefined });
    // An open tab offers it: listed under that tab's name, but the domain-only name an agent may
    // hold from before (issue 27 H2) still routes, to the best tab of the domain.
    if (live.some((tab) => tab.domain === entry.domain && hasTool(tab, entry.tool.name))) continue;
    const origin = originOfDomain(entry.domain, entry.url);
    tools.push(presentHubTool(entry.tool, name, { origin, ordinal: undefined, active: false, reopenUrl: entry.url }));
  }
  return { tools, routes, capabilities: hubCapabilities(state) };
}

/**
 * docs/requirements.md#hub's aggregate: caching is supported when this hub can cache and some allowed page supports
 * it, by declaring `browser.cacheSupported` or by marking a tool `cache` (or a cached tool is kept).
 * Elicitation stays off whatever pages declare: the hub has no way to relay it.
 */
function hubCapabilities(state: HubViewState): BrowserCapabilities {
  const pageCaches = (tab: ViewTab) =>
    state.siteAccess(tab.url) === 'allowed' &&
    (tab.capabilities?.cacheSupported === true || tab.tools.some((tool) => isCached(tool)));
  return {
    multiTabSupport: true,
    cacheSupported: state.canCache && (state.cached.length > 0 || state.tabs.some(pageCaches)),
    elicitation: false,
  };
}

/** Capabilities travel with the list, so a change of either is announced. */
export function viewSignature(view: HubView): string {
  return JSON.stringify([view.tools, view.capabilities]);
}
