import { type Hub, hubToolName, type TabTools } from '@tabmcp/hub';
import { type CallToolResult, type ContentToBackground, waitUntil } from '@tabmcp/protocol';
import { NAVIGATING_META } from '../navigation-meta';
import { type NewPageFacts, withNavigationReport, withoutReportLookalikes } from './navigation-report-builder';

/** How long an answer that loaded another document waits for that page and its tools. */
const REPORT_WAIT_MS = 3_000;

/** The names an agent calls the tools of a tab by: the page's own (focused view) or the hub's (`all` view). */
type ToolNames = (tab: TabTools) => string[];

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
  const loads = watchTabLoads();
  const derived = derivedTabs(hub);
  try {
    const result = await hub.callTool(tabId, toolName, args, timeoutMs);
    if (takeMark(result) === undefined) return withoutReportLookalikes(result);
    const context = { answeredByTabmcp: derived.has(tabId), siteAccess: (url: string) => hub.siteAccess(url) };
    return withNavigationReport(result, await newPage(hub, tabId, loads, pageNames(hub)), context);
  } finally {
    loads.stop();
  }
}

/**
 * The same for a call in the `all` view, by a hub name: the hub picks the tab, so every tab is
 * watched from the start, and the tab that answered is read off the answer's mark, where the Port
 * adapter wrote it (markTab). The new page's tools are given by their hub names.
 */
export async function callHubToolReportingNavigation(
  hub: Hub,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number | undefined,
): Promise<CallToolResult> {
  const loads = watchTabLoads();
  const derived = derivedTabs(hub);
  try {
    const result = await hub.callHubTool(name, args, timeoutMs);
    const tabId = takeMark(result);
    if (tabId === undefined) return withoutReportLookalikes(result);
    const context = {
      answeredByTabmcp: typeof tabId === 'number' && derived.has(tabId),
      siteAccess: (url: string) => hub.siteAccess(url),
    };
    if (typeof tabId !== 'number') {
      return withNavigationReport(
        result,
        { navigating: true, note: 'The tab is loading another page; call get_page_content to read it.' },
        context,
      );
    }
    return withNavigationReport(result, await newPage(hub, tabId, loads, hubNames(hub)), context);
  } finally {
    loads.stop();
  }
}

/**
 * Writes into a tab's marked answer which tab sent it, as it arrives on the tab's Port: only
 * there is the tab of a hub-routed call known for sure (and a page cannot claim another tab).
 */
export function markTab(message: ContentToBackground, tabId: number): void {
  if (!('result' in message) || !message.result.success) return;
  const meta = (message.result.payload as { _meta?: unknown } | null)?._meta;
  if (typeof meta === 'object' && meta !== null && NAVIGATING_META in meta) {
    (meta as Record<string, unknown>)[NAVIGATING_META] = tabId;
  }
}

const pageNames =
  (hub: Hub): ToolNames =>
  (tab) =>
    hub.toolsOf(tab.tabId).map((tool) => tool.name);

const hubNames =
  (hub: Hub): ToolNames =>
  ({ tabId, domain, ordinal }) =>
    domain === undefined ? [] : hub.toolsOf(tabId).map((tool) => hubToolName(domain, ordinal, tool.name, new Set()));

/** The tabs answered by tabmcp's own derived tools, taken before a call (the tab's next page may differ). */
const derivedTabs = (hub: Hub): Set<number> =>
  new Set(hub.tabs().flatMap((tab) => (tab.source === 'dom' ? [tab.tabId] : [])));

/** The mark's value (the answering tab's id once markTab wrote it), taken off; undefined when unmarked. */
function takeMark(result: CallToolResult): unknown {
  const meta = result._meta;
  if (typeof meta !== 'object' || meta === null || !(NAVIGATING_META in meta)) return undefined;
  const { [NAVIGATING_META]: mark, ...rest } = meta as Record<string, unknown>;
  if (Object.keys(rest).length > 0) result._meta = rest;
  else delete result._meta;
  return mark ?? true;
}

async function newPage(hub: Hub, tabId: number, loads: TabLoadWatch, names: ToolNames): Promise<NewPageFacts> {
  const deadline = Date.now() + REPORT_WAIT_MS;
  const loaded = await loads.loaded(tabId, REPORT_WAIT_MS);
  if (!loaded?.url) {
    return {
      navigating: true,
      note: 'The new page has not finished loading; a tools/list_changed follows when its tools are ready. Then call get_page_content.',
    };
  }
  const tools = await toolsOfPage(hub, tabId, loaded.url, names, deadline - Date.now());
  // The title may have been set after the load event reported the tab.
  const tab = await chrome.tabs.get(tabId).catch(() => loaded);
  return {
    url: tab.url ?? loaded.url,
    title: tab.title ?? '',
    ...(tools ? { tools } : { note: 'Its tools are not ready yet; a tools/list_changed follows.' }),
  };
}

/** The names of the tab's tools once the page at `url` registered them, or undefined after `timeoutMs`. */
function toolsOfPage(
  hub: Hub,
  tabId: number,
  url: string,
  names: ToolNames,
  timeoutMs: number,
): Promise<string[] | undefined> {
  const ready = () => {
    const entry = hub.tabs().find((tab) => tab.tabId === tabId);
    return entry?.connected && entry.url === url ? names(entry) : undefined;
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
  loaded(tabId: number, timeoutMs: number): Promise<chrome.tabs.Tab | undefined>;
  stop(): void;
}

/** Watches the loads of every tab: a hub-routed call learns its tab only from the answer. */
function watchTabLoads(): TabLoadWatch {
  const loading = new Set<number>();
  const closed = new Set<number>();
  const completed = new Map<number, chrome.tabs.Tab>();
  const wakers = new Map<number, () => void>();
  const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab) => {
    if (change.status === 'loading') {
      loading.add(id);
      completed.delete(id);
    } else if (change.status === 'complete' && loading.has(id)) {
      completed.set(id, tab);
      wakers.get(id)?.();
    }
  };
  const onRemoved = (id: number) => {
    closed.add(id);
    wakers.get(id)?.();
  };
  chrome.tabs.onUpdated.addListener(onUpdated);
  chrome.tabs.onRemoved.addListener(onRemoved);
  return {
    loaded: (tabId, timeoutMs) =>
      completed.has(tabId) || closed.has(tabId)
        ? Promise.resolve(completed.get(tabId))
        : waitUntil<chrome.tabs.Tab | undefined>(
            (done) => {
              wakers.set(tabId, () => done(completed.get(tabId)));
              return () => {
                wakers.delete(tabId);
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
