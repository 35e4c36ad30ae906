import { cleanPageLine, type SiteAccess, type TabInfo, type Tool } from '@tabmcp/protocol';

/**
 * A tab as the server sees it. Its title is page-written: always one clean line, and on a site the
 * user has not allowed, marked as such with its origin, so it cannot pass for tabmcp's own words.
 */
export function toTabInfo(
  tab: chrome.tabs.Tab,
  tools?: Tool[],
  siteAccess?: SiteAccess,
  notAllowedYet = siteAccess !== undefined && siteAccess !== 'allowed',
): TabInfo {
  const url = cleanPageLine(tab.pendingUrl ?? tab.url ?? '').slice(0, 8192);
  const title = cleanPageLine(tab.title ?? '');
  const marked = notAllowedYet ? `[page title from ${originOf(url)}, site not allowed yet] ${title}` : title;
  return {
    id: tab.id ?? -1,
    title: marked.slice(0, 4096),
    url,
    active: tab.active,
    ...(tools ? { tools } : {}),
    ...(siteAccess && siteAccess !== 'allowed' ? { siteAccess } : {}),
  };
}

function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? 'an opaque origin' : origin;
  } catch {
    return 'an unknown page';
  }
}
