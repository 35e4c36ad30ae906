import { forgetPromptTab, isPromptTab } from './confirm/ask-person';
import { forgetKeeper, isKeeper } from './keep-open';

/**
 * The extension's own pages that open as tabs: the keep-open page (keep-open.ts) and the
 * confirmation prompt's window (confirm/ask-person.ts). Neither is a tab of the agent's: list_tabs,
 * the tab events and the remote getTabs leave them out, and focusing them moves no agent's focus.
 */
export function isOwnPage(tab: chrome.tabs.Tab | number): boolean {
  return isKeeper(tab) || isPromptTab(tab);
}

/** The tab closed: true when it was one of the extension's own pages (and is forgotten now). */
export function forgetOwnPage(tabId: number): boolean {
  if (!isOwnPage(tabId)) return false;
  forgetKeeper(tabId);
  forgetPromptTab(tabId);
  return true;
}
