import type { TabInfo } from '@tabmcp/protocol';
import type { BrowserEvent } from '../core/browser-connection';

/**
 * The events that turn the tabs known before into the tabs reported now (a getTabs answer), so a
 * passive extension polled through the proxy drives the session like the local link's events.
 */
export function diffTabs(before: ReadonlyMap<number, TabInfo>, now: readonly TabInfo[]): BrowserEvent[] {
  const events: BrowserEvent[] = [];
  const seen = new Set<number>();
  for (const tab of now) {
    seen.add(tab.id);
    const old = before.get(tab.id);
    if (!old) {
      events.push({ type: 'tabCreated', tab });
      if ((tab.tools ?? []).length > 0) events.push({ type: 'toolsChanged', tabId: tab.id, tools: tab.tools ?? [] });
      continue;
    }
    if (old.title !== tab.title || old.url !== tab.url || old.siteAccess !== tab.siteAccess)
      events.push({ type: 'tabUpdated', tab });
    if (JSON.stringify(old.tools ?? []) !== JSON.stringify(tab.tools ?? []))
      events.push({ type: 'toolsChanged', tabId: tab.id, tools: tab.tools ?? [] });
    if (tab.active && !old.active) events.push({ type: 'tabFocused', tabId: tab.id, tools: tab.tools ?? [] });
  }
  for (const id of before.keys()) if (!seen.has(id)) events.push({ type: 'tabClosed', tabId: id });
  return events;
}
