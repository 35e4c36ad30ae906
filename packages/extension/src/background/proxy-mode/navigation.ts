import { ErrorCode, PAGE_LOAD_BUDGET_MS, ProtocolError } from '@tabmcp/protocol';
import { waitForTabLoad } from '../tab-load';

/**
 * Starts a navigation of a tab and resolves with the tab once it finished loading. A same-document
 * navigation (a history entry of a single-page app) never reloads; it counts as done once the URL
 * changed and the tab is complete.
 */
export async function navigateAndWait(tabId: number, start: () => Promise<unknown>): Promise<chrome.tabs.Tab> {
  const before = await getTab(tabId);
  return waitForTabLoad(tabId, {
    timeoutMs: PAGE_LOAD_BUDGET_MS,
    afterLoading: true,
    start,
    done: (now) => now.status === 'complete' && now.url !== before.url,
  });
}

export async function getTab(tabId: number): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.get(tabId);
  } catch {
    throw new ProtocolError(ErrorCode.TabNotFound, `No tab with id ${tabId}: call getTabs to see the open tabs.`);
  }
}
