export interface RoutableTab {
  tabId: number;
  domain: string;
  updatedAt: number;
  hasTool(toolName: string): boolean;
}

/**
 * docs/requirements.md#hub's TabManager.getBestTabForDomain: the active tab if it has the tool, else the tab of
 * that domain with the tool that was updated last; undefined means a new tab must be opened.
 */
export function bestTabForDomain<T extends RoutableTab>(
  tabs: Iterable<T>,
  domain: string,
  toolName: string,
  activeTabId: number | undefined,
  exclude: ReadonlySet<number> = new Set(),
): T | undefined {
  let best: T | undefined;
  for (const tab of tabs) {
    if (tab.domain !== domain || exclude.has(tab.tabId) || !tab.hasTool(toolName)) continue;
    if (tab.tabId === activeTabId) return tab;
    if (!best || tab.updatedAt > best.updatedAt) best = tab;
  }
  return best;
}
