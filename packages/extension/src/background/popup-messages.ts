import { type Hub, siteOf } from '@tabmcp/hub';
import { type LinkProblem, type Logger, PopupRequest, type PopupState, validate } from '@tabmcp/protocol';

export interface PopupContext {
  hub: Hub;
  linkState: () => 'open' | 'closed';
  /** Why the link is closed, when known (browser-link.ts). */
  linkProblem: () => LinkProblem | undefined;
  serverUrl: () => Promise<string>;
  onSiteChanged: (site: string) => void;
}

/**
 * Answers the popup. Only extension pages may ask: a message from a content script (which a page
 * may have compromised) could otherwise allow its own site.
 */
export function listenToPopup(context: PopupContext, log: Logger) {
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    // Extension pages only (the popup, or popup.html in a tab): content scripts send with the page's URL.
    if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL(''))) return false;
    const parsed = validate(PopupRequest, raw, 'popup message');
    if (!parsed.ok) {
      log('popup.rejected', { reason: parsed.error.message });
      return false;
    }
    const request = parsed.value;
    if (request.type === 'popup/setSite') {
      context.hub.setSiteDecision(request.site, request.decision === 'forget' ? undefined : request.decision);
      context.onSiteChanged(request.site);
    }
    popupState(context).then(sendResponse, (error: unknown) => sendResponse({ error: String(error) }));
    return true;
  });
}

async function popupState(context: PopupContext): Promise<PopupState> {
  const { hub } = context;
  const browserTabs = await chrome.tabs.query({});
  const known = new Map(hub.tabs().map((tab) => [tab.tabId, tab]));
  const tabs: PopupState['tabs'] = [];
  for (const tab of browserTabs) {
    const entry = tab.id === undefined ? undefined : known.get(tab.id);
    if (!entry) continue;
    const url = entry.url ?? tab.url ?? '';
    tabs.push({
      tabId: entry.tabId,
      title: (tab.title ?? '').slice(0, 4096),
      url: url.slice(0, 8192),
      site: siteOf(url) ?? '',
      access: hub.siteAccess(url),
      active: tab.active === true,
      tools: entry.tools.map((tool) => tool.name),
    });
  }
  const link = context.linkState();
  const problem = link === 'closed' ? context.linkProblem() : undefined;
  return {
    link,
    ...(problem ? { linkProblem: problem } : {}),
    serverUrl: await context.serverUrl(),
    tabs,
    sites: hub.sites(),
    calls: hub.audit(['call'], 20),
  };
}
