/**
 * An agent that closes the browser's last tab must find the browser still there for open_tab
 * (docs/requirements.md#local-server, CONNECTED (no tabs)), but Chromium quits with its last window. So before
 * that tab closes, the extension leaves a page of its own in the window, which the server never
 * sees as a tab and which gives way to the next tab an agent opens. docs/decisions.md, 46.
 */
const KEEP_OPEN_PAGE = 'keep-open.html';

const keepers = new Set<number>();

function isKeepOpenPage(tab: chrome.tabs.Tab): boolean {
  return (tab.pendingUrl ?? tab.url ?? '').startsWith(chrome.runtime.getURL(KEEP_OPEN_PAGE));
}

/** Whether the tab is the extension's keep-open page (never reported to the server). */
export function isKeeper(tab: chrome.tabs.Tab | number): boolean {
  if (typeof tab === 'number') return keepers.has(tab);
  if (tab.id !== undefined && isKeepOpenPage(tab)) keepers.add(tab.id);
  return tab.id !== undefined && keepers.has(tab.id);
}

export function forgetKeeper(tabId: number): void {
  keepers.delete(tabId);
}

/** A restarted worker finds the keep-open pages it left. */
export async function findKeepers(): Promise<void> {
  for (const tab of await chrome.tabs.query({})) isKeeper(tab);
}

/** Before `closing` closes: when no other tab would be left, its window gets the keep-open page. */
export async function keepWindowOpen(closing: chrome.tabs.Tab): Promise<void> {
  const tabs = await chrome.tabs.query({});
  if (tabs.some((tab) => tab.id !== closing.id)) return;
  const kept = await chrome.tabs.create({
    url: chrome.runtime.getURL(KEEP_OPEN_PAGE),
    active: false,
    ...(closing.windowId === undefined ? {} : { windowId: closing.windowId }),
  });
  isKeeper(kept);
}

/**
 * Opens a tab for an agent: in the window of the keep-open page, which then closes, or in a new
 * window when the browser has none (`chrome.tabs.create` alone fails with "No current window").
 */
export async function openAgentTab(url: string, active: boolean): Promise<chrome.tabs.Tab | undefined> {
  const left = (await chrome.tabs.query({})).filter((tab) => isKeeper(tab));
  const windows = await chrome.windows.getAll({ windowTypes: ['normal'] });
  let created: chrome.tabs.Tab | undefined;
  if (windows.length === 0) {
    const opened = await chrome.windows.create({ url, focused: active });
    created = opened?.tabs?.[0];
  } else {
    const windowId = left[0]?.windowId;
    created = await chrome.tabs.create({ url, active, ...(windowId === undefined ? {} : { windowId }) });
  }
  const leftIds = left.flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
  if (leftIds.length > 0) await chrome.tabs.remove(leftIds).catch(() => {});
  return created;
}
