import { type Hub, siteOf } from '@tabmcp/hub';
import { ErrorCode, ProtocolError } from '@tabmcp/protocol';
import type { MethodHandlers } from './method-table';
import { getTab } from './navigation';
import type { RemoteCall } from './proxy-link';

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
 * The methods that reach into a tab's frames, not only its top page: CDP (an iframe's execution context, DOM,
 * frame tree), pixels (a screenshot shows what frames draw) and input at a point (which may land in a frame).
 * They need every frame's site allowed too; page tools and resources are the top page's own.
 */
const FRAME_REACHING: ReadonlySet<PageMethod> = new Set(['forwardCDPCommand', 'screenshot', 'click', 'hover', 'type']);

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
    const handler = handlers[method] as (params: { tabId?: number }, call: RemoteCall) => Promise<unknown>;
    // Checked before the method and again after it: an answer read once a page or frame moved is dropped.
    const check = async (tabId: number) => {
      await requireAllowed(hub, tabId, method);
      if (FRAME_REACHING.has(method)) await requireFramesAllowed(hub, tabId, method);
    };
    const guard = async (
      params: { tabId?: number; method?: string; params?: Record<string, unknown> },
      call: RemoteCall,
    ) => {
      if (method === 'forwardCDPCommand') refuseCrossSiteCdp(hub, params.method ?? '', params.params);
      const tabId = params.tabId ?? (await activeTabId());
      await check(tabId);
      const result = await handler({ ...params, tabId }, call);
      await check(tabId);
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

/**
 * Every frame of the tab must show an allowed site (issue 26): CDP on a tab reaches its frames (an iframe's
 * execution context, its DOM), a screenshot shows them, and a click at a point may land in one. Frames without a
 * site of their own (about:blank, srcdoc, data:) belong to the page that wrote them.
 */
async function requireFramesAllowed(hub: Hub, tabId: number, method: PageMethod): Promise<void> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  for (const frame of frames) {
    const url = frame.url.startsWith('blob:') ? frame.url.slice('blob:'.length) : frame.url;
    if (frame.frameId === 0 || !/^(https?|file):/i.test(url)) continue;
    const access = hub.siteAccess(url);
    if (access === 'allowed') continue;
    throw new ProtocolError(
      ErrorCode.SiteNotAllowed,
      `${method} refused: tab ${tabId} embeds a frame of ${siteOf(url) ?? url}, which is ` +
        `${access === 'blocked' ? 'blocked' : 'not allowed yet'}, and ${method} would reach into it. The user allows ` +
        "that site in the tabmcp popup; the page's own tools (callPageTool) still work.",
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
