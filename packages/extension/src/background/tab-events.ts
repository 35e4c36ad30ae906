import type { Hub } from '@tabmcp/hub';
import type { ExtensionToServer } from '@tabmcp/protocol';
import { FocusedTab } from './focused-tab';
import { tabInfoOf } from './link-commands';
import { forgetOwnPage, isOwnPage } from './own-pages';

/** The hub's active-tab marker: the active tab of the focused window (issue 27 H6). */
const focusedTab = new FocusedTab();

/**
 * Tells the server what happens in the browser: tabs created, updated, closed and activated, each
 * tab's tools, and a page's resource/prompt notifications (the hub's `all` view list goes out only
 * to a server that watches it: hub-catalog-feed.ts).
 * Returns `reportTab`, which re-sends one tab's info (e.g. after its site was allowed).
 */
export function forwardTabEvents(
  hub: Hub,
  send: (message: ExtensionToServer) => void,
  browserClosing: () => void,
): (tabId: number) => void {
  const reportTab = (tabId: number) => {
    chrome.tabs.get(tabId).then(
      (tab) => send({ type: 'tabUpdated', tab: tabInfoOf(hub, tab) }),
      () => {},
    );
  };

  hub.onToolsChanged((tabId, tools) => {
    send({ type: 'toolsChanged', tabId, tools });
    // list_tabs says why a tab of a site not allowed shows no tools.
    const url = hub.tabs().find((tab) => tab.tabId === tabId)?.url;
    if (hub.hasRegistered(tabId) && hub.siteAccess(url) !== 'allowed') reportTab(tabId);
  });
  hub.onPageNotification((tabId, method, params) =>
    send({
      type: 'pageNotification',
      tabId,
      method: method as 'notifications/resources/updated',
      ...(params ? { params } : {}),
    }),
  );

  // The extension's own pages (the keep-open page, the confirmation prompt) are no tabs of the agent's.
  chrome.tabs.onCreated.addListener((tab) => {
    if (tab.id !== undefined && !isOwnPage(tab)) send({ type: 'tabCreated', tab: tabInfoOf(hub, tab) });
  });
  // A real navigation ends the content script, whose Port closing clears the tab's tools in the hub;
  // same-document navigations (SPA routes) keep them.
  chrome.tabs.onUpdated.addListener((_tabId, change, tab) => {
    if (isOwnPage(tab)) return;
    if (change.url !== undefined || change.title !== undefined || change.status === 'complete') {
      send({ type: 'tabUpdated', tab: tabInfoOf(hub, tab) });
    }
  });
  // Each tab of the closing window reports it; the browser's closing is told once per window.
  let closingWindow: number | undefined;
  chrome.tabs.onRemoved.addListener((tabId, { isWindowClosing, windowId }) => {
    hub.removeTab(tabId, `Tab ${tabId} was closed before answering`);
    if (forgetOwnPage(tabId)) return;
    if (!isWindowClosing) {
      send({ type: 'tabClosed', tabId });
      return;
    }
    // The last window closing is the browser closing: one `disconnected` instead of a tabClosed per
    // tab, so the agent hears of it once (issue 14, defect 4).
    void lastWindow(windowId).then((last) => {
      if (!last) send({ type: 'tabClosed', tabId });
      else if (closingWindow !== windowId) {
        closingWindow = windowId;
        browserClosing();
      }
    });
  });
  chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
    if (isOwnPage(tabId)) return;
    const looked = focusedTab.activated(tabId, windowId);
    if (looked !== undefined) hub.setActiveTab(looked);
    send({ type: 'tabFocused', tabId, tools: hub.toolsOf(tabId) });
  });
  chrome.windows.onFocusChanged.addListener((windowId) => {
    const looked = focusedTab.focused(windowId === chrome.windows.WINDOW_ID_NONE ? 'none' : windowId);
    if (looked !== undefined && !isOwnPage(looked)) hub.setActiveTab(looked);
  });
  chrome.windows.onRemoved.addListener((windowId) => focusedTab.windowClosed(windowId));
  return reportTab;
}

async function lastWindow(windowId: number): Promise<boolean> {
  const windows = await chrome.windows.getAll().catch(() => []);
  return windows.every((window) => window.id === windowId);
}

/**
 * A restarted worker rebuilds the hub from storage and the tabs still open, before it dials. The
 * hub starts restoring at once (before the tab query answers): content scripts register again
 * within milliseconds, and must find their stored entries so each tab keeps its number.
 */
export async function restoreHub(hub: Hub): Promise<void> {
  const liveTabs = chrome.tabs
    .query({})
    .then((tabs) => tabs.flatMap((tab) => (tab.id === undefined ? [] : [{ tabId: tab.id, url: tab.url }])));
  await hub.restore(liveTabs);
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (active?.id !== undefined && active.windowId !== undefined) {
    focusedTab.focused(active.windowId);
    focusedTab.activated(active.id, active.windowId);
  }
  hub.setActiveTab(active?.id);
}
