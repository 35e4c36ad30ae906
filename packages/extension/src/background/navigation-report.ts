import type { Hub } from '@tabmcp/hub';
import { type CallToolResult, waitUntil } from '@tabmcp/protocol';
import { NAVIGATING_META } from '../navigation-meta';

/** How long an answer that loaded another document waits for that page and its tools. */
const REPORT_WAIT_MS = 3_000;

type NewPage = Record<string, unknown>;

/**
 * Calls a tool of a tab and, when the call loaded another document (the answer carries the
 * content script's mark), says where the tab went: the new URL and title and the tools there, once
 * the page loaded, within 3 s. The tab is watched from the start of the call, because the load may
 * begin before the answer arrives.
 */
export async function callToolReportingNavigation(
  hub: Hub,
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  timeoutMs: number | undefined,
): Promise<CallToolResult> {
  const load = watchTabLoad(tabId);
  try {
    const result = await hub.callTool(tabId, toolName, args, timeoutMs);
    if (!takeMark(result)) return result;
    return withNewPage(result, await newPage(hub, tabId, load));
  } finally {
    load.stop();
  }
}

/** A call routed by the hub to a tab it picks: the mark is taken off, the agent told to read on. */
export function withoutNavigationMark(result: CallToolResult): CallToolResult {
  if (!takeMark(result)) return result;
  return withNewPage(result, {
    navigating: true,
    note: 'The tab is loading another page; call get_page_content to read it.',
  });
}

function takeMark(result: CallToolResult): boolean {
  const meta = result._meta;
  if (typeof meta !== 'object' || meta === null || !(NAVIGATING_META in meta)) return false;
  const { [NAVIGATING_META]: _taken, ...rest } = meta as Record<string, unknown>;
  if (Object.keys(rest).length > 0) result._meta = rest;
  else delete result._meta;
  return true;
}

async function newPage(hub: Hub, tabId: number, load: TabLoadWatch): Promise<NewPage> {
  const deadline = Date.now() + REPORT_WAIT_MS;
  const loaded = await load.loaded(REPORT_WAIT_MS);
  if (!loaded?.url) {
    return {
      navigating: true,
      note: 'The new page has not finished loading; a tools/list_changed follows when its tools are ready. Then call get_page_content.',
    };
  }
  const tools = await toolsOfPage(hub, tabId, loaded.url, deadline - Date.now());
  // The title may have been set after the load event reported the tab.
  const tab = await chrome.tabs.get(tabId).catch(() => loaded);
  return {
    url: tab.url ?? loaded.url,
    title: tab.title ?? '',
    ...(tools ? { tools } : { note: 'Its tools are not ready yet; a tools/list_changed follows.' }),
  };
}

/**
 * Merged into the answer when it is one JSON object (the derived tools' answers), whose
 * `navigating` it replaces (kept while the page still loads); else a second text block after the
 * page's own answer.
 */
function withNewPage(result: CallToolResult, page: NewPage): CallToolResult {
  const [only, ...others] = result.content;
  const answer =
    others.length === 0 && only?.type === 'text' ? parseObject((only as { text: string }).text) : undefined;
  if (answer) {
    const { navigating: _replaced, ...rest } = answer;
    return { ...result, content: [{ type: 'text', text: JSON.stringify({ ...rest, ...page }) }] };
  }
  return { ...result, content: [...result.content, { type: 'text', text: JSON.stringify(page) }] };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The names of the tab's tools once the page at `url` registered them, or undefined after `timeoutMs`. */
function toolsOfPage(hub: Hub, tabId: number, url: string, timeoutMs: number): Promise<string[] | undefined> {
  const ready = () => {
    const entry = hub.tabs().find((tab) => tab.tabId === tabId);
    return entry?.connected && entry.url === url ? hub.toolsOf(tabId).map((tool) => tool.name) : undefined;
  };
  const now = ready();
  if (now || timeoutMs <= 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const finish = (tools: string[] | undefined) => {
      clearTimeout(timer);
      stop();
      resolve(tools);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const stop = hub.onToolsChanged((changed) => {
      const tools = changed === tabId ? ready() : undefined;
      if (tools) finish(tools);
    });
  });
}

interface TabLoadWatch {
  /** The tab once a load that began after the watch started completed; undefined on timeout or close. */
  loaded(timeoutMs: number): Promise<chrome.tabs.Tab | undefined>;
  stop(): void;
}

function watchTabLoad(tabId: number): TabLoadWatch {
  let loading = false;
  let closed = false;
  let completed: chrome.tabs.Tab | undefined;
  let wake = () => {};
  const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab) => {
    if (id !== tabId) return;
    if (change.status === 'loading') {
      loading = true;
      completed = undefined;
    } else if (change.status === 'complete' && loading) {
      completed = tab;
      wake();
    }
  };
  const onRemoved = (id: number) => {
    if (id !== tabId) return;
    closed = true;
    wake();
  };
  chrome.tabs.onUpdated.addListener(onUpdated);
  chrome.tabs.onRemoved.addListener(onRemoved);
  return {
    loaded: (timeoutMs) =>
      completed || closed
        ? Promise.resolve(completed)
        : waitUntil<chrome.tabs.Tab | undefined>(
            (done) => {
              wake = () => done(completed);
              return () => {
                wake = () => {};
              };
            },
            { timeoutMs, onTimeout: () => undefined },
          ),
    stop: () => {
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
    },
  };
}
