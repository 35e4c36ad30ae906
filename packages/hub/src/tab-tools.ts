import type { PageBrowserCapabilities, Tool, ToolSource } from '@tabmcp/protocol';

/** One tab's tools as the hub keeps them. */
export interface TabTools {
  tabId: number;
  url: string | undefined;
  domain: string | undefined;
  /**
   * The N of `tab<N>` in hub names: per domain, the tab's for life, never given to another tab (tab-numbers.ts).
   * Undefined while a slow restore has not read the stored counters: the tab is served by its id, not listed by name.
   */
  ordinal: number | undefined;
  source: ToolSource | undefined;
  tools: Tool[];
  updatedAt: number;
  /** When the hub last knew the tab alive (registered, or connected when the state was saved). */
  lastSeen: number;
  /** The `browser` capabilities its page declared at initialize (docs/requirements.md "Capability Negotiation"). */
  capabilities: PageBrowserCapabilities | undefined;
  /** False for a tab restored from storage whose content script has not registered again yet. */
  connected: boolean;
}

export function hasTool(tab: Pick<TabTools, 'tools'>, toolName: string): boolean {
  return tab.tools.some((tool) => tool.name === toolName);
}

/** A cached tool is kept per domain and page tool name. */
export function cacheKey(domain: string, toolName: string): string {
  return `${domain}\u0000${toolName}`;
}
