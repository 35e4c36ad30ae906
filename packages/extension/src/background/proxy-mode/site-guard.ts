import { type Hub, siteOf } from '@tabmcp/hub';
import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import type { MethodHandlers } from './method-table';
import { getTab } from './navigation';

/** The methods that read or act on what a tab shows: each needs the tab's site allowed by the user. */
const PAGE_METHODS = [
  'click',
  'hover',
  'type',
  'forwardCDPCommand',
  'screenshot',
  'callPageTool',
  'pageRequest',
  'listPageTools',
] as const;
type PageMethod = (typeof PAGE_METHODS)[number];

/**
 * CDP methods whose reach is not the tab's page: cookies and storage of any site, other targets,
 * the browser. Through a tab of an allowed site they would read or change sites the user never
 * allowed (issue 26: `Network.getCookies` returned a not-allowed site's session cookie).
 */
const CROSS_SITE_CDP =
  /^(Storage|Target|Browser|SystemInfo|Tethering|BackgroundService)\.|^Network\.(getAllCookies|setCookies?|deleteCookies|clearBrowserCookies|loadNetworkResource)$/;

/**
 * Proxy mode (docs/remote.md) under the user's site decisions, like the local link: a remote client
 * cannot evaluate, screenshot, click or call tools in a tab of a site the user has not allowed
 * (hub site-policy.ts). The tab's site is checked before the method and again after it, so an answer
 * read from a page that moved to a site not allowed meanwhile is dropped, not sent.
 */
export function withSiteDecisions(hub: Hub, handlers: MethodHandlers): MethodHandlers {
  const guarded: MethodHandlers = { ...handlers };
  for (const method of PAGE_METHODS) {
    const handler = handlers[method] as (params: { tabId?: number }) => Promise<unknown>;
    const guard = async (params: { tabId?: number; method?: string; params?: Record<string, unknown> }) => {
      if (method === 'forwardCDPCommand') refuseCrossSiteCdp(hub, params.method ?? '', params.params);
      const tabId = params.tabId ?? (await activeTabId());
      await requireAllowed(hub, tabId, method);
      const result = await handler({ ...params, tabId });
      await requireAllowed(hub, tabId, method);
      return result;
    };
    (guarded as Record<PageMethod, unknown>)[method] = guard;
  }
  return guarded;
}

async function requireAllowed(hub: Hub, tabId: number, method: PageMethod): Promise<void> {
  const tab = await getTab(tabId);
  for (const url of [tab.url, tab.pendingUrl]) {
    if (url === undefined || url === '') continue;
    const access = hub.siteAccess(url);
    if (access === 'allowed') continue;
    throw new ProtocolError(
      ErrorCode.SiteNotAllowed,
      `${method} refused: tab ${tabId} shows ${siteOf(url) ?? 'a page that is not a web site'}, which is ` +
        `${access === 'blocked' ? 'blocked' : 'not allowed yet'}. The user allows a site in the tabmcp popup.`,
    );
  }
}

function refuseCrossSiteCdp(hub: Hub, method: string, params: Record<string, unknown> | undefined): void {
  if (CROSS_SITE_CDP.test(method)) {
    throw new ProtocolError(
      ErrorCode.SiteNotAllowed,
      `forwardCDPCommand refused: ${method} reaches beyond the tab's own site (cookies, storage, other targets or ` +
        'the browser), so it could read sites the user has not allowed.',
    );
  }
  // getCookies with `urls` names sites of its own: each must be allowed.
  const urls = method === 'Network.getCookies' ? params?.urls : undefined;
  if (Array.isArray(urls)) {
    const refused = urls.find((url) => typeof url !== 'string' || hub.siteAccess(url) !== 'allowed');
    if (refused !== undefined) {
      throw new ProtocolError(
        ErrorCode.SiteNotAllowed,
        `forwardCDPCommand refused: Network.getCookies names ${String(refused)}, a site the user has not allowed.`,
      );
    }
  }
}

async function activeTabId(): Promise<number> {
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (active?.id === undefined) throw new ProtocolError(ErrorCode.TabNotFound, 'No active tab');
  return active.id;
}
