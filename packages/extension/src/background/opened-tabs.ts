import type { CallToolResult } from '@tabmcp/protocol';
import { markPageText } from '@tabmcp/protocol/light';

/** Opened tabs listed in one answer, at most. */
const MAX_LISTED = 10;

interface OpenedTab {
  id: number;
  url: string;
  title?: string;
}

/**
 * Tabs and popups a call opened (docs/dom-tools.md, "New tabs"): the browser tells the background
 * when a page opens a window or tab (`chrome.webNavigation.onCreatedNavigationTarget`, with the tab
 * that opened it), so a page cannot hide or fake one. The answer lists each with the id `focus_tab`
 * takes, its address and its title (page text, marked), so the agent reaches it in one call.
 */
export async function reportingOpenedTabs(tabId: number, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  hearOpenedTabs();
  const opened: Array<{ id: number; url: string }> = [];
  const heard: OpenedTabListener = (details) => {
    if (details.sourceTabId === tabId && opened.length < MAX_LISTED)
      opened.push({ id: details.tabId, url: details.url });
  };
  listening.add(heard);
  try {
    const result = await call();
    if (opened.length === 0) return result;
    return withOpenedTabs(result, await Promise.all(opened.map(describe)));
  } finally {
    listening.delete(heard);
  }
}

type OpenedTabListener = (details: chrome.webNavigation.WebNavigationSourceCallbackDetails) => void;

/** The calls in flight; the one chrome listener stays added and fans out to them. */
const listening = new Set<OpenedTabListener>();
let listenerAdded = false;

/**
 * Adds the chrome listener once, at the first call, and keeps it, as the navigation watch does
 * (navigation-report.ts): adding and removing it per call is a round trip to the browser process
 * each, on every page tool call, while a tab opened with no call waiting costs a loop over none.
 */
function hearOpenedTabs(): void {
  if (listenerAdded) return;
  listenerAdded = true;
  chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
    for (const heard of listening) heard(details);
  });
}

async function describe(tab: { id: number; url: string }): Promise<OpenedTab> {
  const now = await chrome.tabs.get(tab.id).catch(() => undefined);
  const url = now?.pendingUrl || now?.url || tab.url;
  const title = now?.title && now.title !== url ? markPageText(now.title, originOf(url), 'title', 200) : undefined;
  return { id: tab.id, url, ...(title ? { title } : {}) };
}

/** Added to a JSON answer as `openedTabs`; any other answer gets it as one more text block. */
function withOpenedTabs(result: CallToolResult, tabs: OpenedTab[]): CallToolResult {
  const [first, ...rest] = result.content;
  if (first?.type === 'text' && typeof first.text === 'string') {
    const parsed = parseObject(first.text);
    if (parsed)
      return { ...result, content: [{ ...first, text: JSON.stringify({ ...parsed, openedTabs: tabs }) }, ...rest] };
  }
  return { ...result, content: [...result.content, { type: 'text', text: JSON.stringify({ openedTabs: tabs }) }] };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? (url.split(':')[0] ?? url) : origin;
  } catch {
    return 'a new tab';
  }
}
