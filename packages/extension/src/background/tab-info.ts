import type { BrowserInfo, SiteAccess, TabInfo, Tool } from '@tabmcp/protocol';

export function toTabInfo(tab: chrome.tabs.Tab, tools?: Tool[], siteAccess?: SiteAccess): TabInfo {
  return {
    id: tab.id ?? -1,
    title: (tab.title ?? '').slice(0, 4096),
    url: (tab.pendingUrl ?? tab.url ?? '').slice(0, 8192),
    active: tab.active,
    ...(tools ? { tools } : {}),
    ...(siteAccess && siteAccess !== 'allowed' ? { siteAccess } : {}),
  };
}

export function browserInfo(): BrowserInfo {
  const match = /(Edg|OPR|Chrome|Chromium)\/([\d.]+)/.exec(navigator.userAgent);
  const brand = match?.[1] === 'Edg' ? 'Edge' : match?.[1] === 'OPR' ? 'Opera' : 'Chromium';
  return { name: brand, version: match?.[2] ?? 'unknown' };
}
