import { type Hub, hubToolName, type TabTools } from '@tabmcp/hub';
import {
  type CallToolResult,
  type ContentToBackground,
  documentOf,
  type PersonWait,
  waitUntil,
  withDocument,
} from '@tabmcp/protocol';
import { NAVIGATING_META } from '../navigation-meta';
import {
  type NewPageFacts,
  withNavigationReport,
  withoutNavigation,
  withoutReportLookalikes,
} from './navigation-report-builder';
import { waitForPageReady } from './page-ready';
import { type TabRequests, watchTabRequests } from './tab-requests';

/** How long an answer that loaded another document waits for that page and its tools. */
const REPORT_WAIT_MS = 3_000;
/**
 * A marked answer whose navigation the browser has not begun by then was marked by mistake (or by
 * the page): it goes out as it is. The browser hears of a navigation within milliseconds of the
 * page's `navigate` event.
 */
const START_WAIT_MS = 1_000;

/** The names an agent calls the tools of a tab by: the page's own (focused view) or the hub's (`all` view). */
type ToolNames = (tab: TabTools) => string[];

/** The new page's tools as the report names them, and the document they belong to (written by its content script). */
interface NewPageTools {
  names: string[];
  document: string | undefined;
}

/** What became of the navigation a call started, as the browser tells it. */
type NavigationOutcome =
  /** The browser loaded no other document after all (a download, a response with no content, cancelled). */
  | { kind: 'none' }
  /** The load failed with the browser's error. */
  | { kind: 'failed'; url: string; error: string }
  /** The new document committed and is still loading. */
  | { kind: 'loading' }
  /** The browser asked for another page and had no answer within the report's wait: the tab still shows the page it had. */
  | { kind: 'uncommitted' }
  /** The tab arrived at a new page; `tools` (and its document's id) once the page listed them. */
  | { kind: 'arrived'; url: string; title: string; tools: NewPageTools | undefined }
  /** The hub-routed call's tab is not known. */
  | { kind: 'unknown-tab' };

/**
 * Calls a tool of a tab and, when the call started a navigation (the answer carries the content
 * script's mark), says what became of it: where the tab went (URL, title, tools there), or that
 * it loaded no other page. The browser's navigation events are heard from the start of the call,
 * because the load may begin before the answer arrives. Unmarked answers go out at once.
 */
export async function callToolReportingNavigation(
  hub: Hub,
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  timeoutMs: number | undefined,
): Promise<CallToolResult> {
  const navigations = watchNavigations();
  const derived = derivedTabs(hub);
  try {
    const result = await hub.callTool(tabId, toolName, args, timeoutMs);
    if (takeMark(result) === undefined) return withoutReportLookalikes(result);
    const outcome = await outcomeOf(hub, tabId, navigations, pageNames(hub));
    return reportNavigation(result, outcome, derived.has(tabId), hub);
  } finally {
    navigations.stop();
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
  onWaiting?: (wait: PersonWait) => void,
): Promise<CallToolResult> {
  const navigations = watchNavigations();
  const derived = derivedTabs(hub);
  try {
    const result = await hub.callHubTool(name, args, timeoutMs, onWaiting);
    const tabId = takeMark(result);
    if (tabId === undefined) return withoutReportLookalikes(result);
    if (typeof tabId !== 'number') return reportNavigation(result, { kind: 'unknown-tab' }, false, hub);
    const outcome = await outcomeOf(hub, tabId, navigations, hubNames(hub));
    return reportNavigation(result, outcome, derived.has(tabId), hub);
  } finally {
    navigations.stop();
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
    domain === undefined || ordinal === undefined
      ? []
      : hub.toolsOf(tabId).map((tool) => hubToolName(domain, ordinal, tool.name, new Set()));

/** Tabs whose tools tabmcp derived: only their one-object answers are tabmcp's own to merge the report into. */
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

async function outcomeOf(
  hub: Hub,
  tabId: number,
  navigations: NavigationWatch,
  names: ToolNames,
): Promise<NavigationOutcome> {
  const deadline = Date.now() + REPORT_WAIT_MS;
  const requests = watchTabRequests();
  try {
    return await outcomeWatching(hub, tabId, navigations, names, { requests, deadline });
  } finally {
    requests.stop();
  }
}

async function outcomeWatching(
  hub: Hub,
  tabId: number,
  navigations: NavigationWatch,
  names: ToolNames,
  { requests, deadline }: { requests: TabRequests; deadline: number },
): Promise<NavigationOutcome> {
  const started = await navigations.until(tabId, (state) => state.started || state.closed, START_WAIT_MS);
  if (!started?.started) return { kind: 'none' };
  // Only a committed navigation replaced the page (issue 38): one the browser aborted (a download, a
  // 204, window.stop(), a navigation replaced by another), failed or still waits for its response has not.
  const settled = await navigations.until(
    tabId,
    (state) => state.committed || state.error !== undefined || state.closed,
    deadline - Date.now(),
  );
  if (!settled?.committed) {
    if (settled?.error !== undefined && settled.error !== ABORTED)
      return { kind: 'failed', url: settled.url ?? '', error: settled.error };
    return settled?.error === undefined && !settled?.closed ? { kind: 'uncommitted' } : { kind: 'none' };
  }
  const ended = await navigations.until(
    tabId,
    (state) => state.complete !== undefined || state.closed,
    deadline - Date.now(),
  );
  const loaded = ended?.complete;
  if (!loaded?.url) return { kind: 'loading' };
  const loadedAt = Date.now();
  let tools = await toolsOfPage(hub, tabId, loaded.url, names, deadline - Date.now());
  if (tools) {
    // The new page's tools as they stand once it is ready (or at the bound), the same at every load.
    await waitForPageReady(hub, tabId, requests, { loadedAt, deadline });
    tools = ready(hub, tabId, loaded.url, names);
  }
  // The title may have been set after the load event reported the tab.
  const tab = await chrome.tabs.get(tabId).catch(() => loaded);
  return { kind: 'arrived', url: tab.url ?? loaded.url, title: tab.title ?? '', tools };
}

/** A navigation replaced by another, a download, or a response with no content: no page of its own. */
const ABORTED = 'net::ERR_ABORTED';

/**
 * The answer as the agent gets it, once the navigation's outcome is known: the report is built by
 * navigation-report-builder.ts from tabmcp's own facts only. When no page committed, the answer stays
 * as the action made it but for its `navigating`; once another page arrived, what the action changed on the page it left is dropped.
 */
function reportNavigation(
  result: CallToolResult,
  outcome: NavigationOutcome,
  answeredByTabmcp: boolean,
  hub: Hub,
): CallToolResult {
  const facts = factsOf(outcome);
  if (facts === undefined) return withoutNavigation(result, answeredByTabmcp);
  const reported = withNavigationReport(result, facts, {
    answeredByTabmcp,
    leftThePage: outcome.kind === 'arrived' || outcome.kind === 'loading',
    siteAccess: (url) => hub.siteAccess(url),
  });
  // The report names the new page's tools: a call to one of them names that page, so a page that
  // replaces it meanwhile refuses the call (docs/dom-tools.md, "Which page a call is for").
  const document = outcome.kind === 'arrived' ? outcome.tools?.document : undefined;
  return document === undefined ? reported : withDocument(reported, document);
}

function factsOf(outcome: NavigationOutcome): NewPageFacts | undefined {
  switch (outcome.kind) {
    case 'none':
      return undefined;
    case 'failed':
      return { navigated: false, loadError: outcome.error, url: outcome.url };
    case 'loading':
      return {
        navigating: true,
        note: 'The new page has not finished loading; a tools/list_changed follows when its tools are ready. Then call get_page_content.',
      };
    case 'uncommitted':
      return {
        note: 'The browser asked for another page and had no answer from it within 3 s, so the tab still shows this one. If the new page arrives, a tools/list_changed follows; call get_page_content to see which page the tab shows.',
      };
    case 'unknown-tab':
      return { navigating: true, note: 'The tab is loading another page; call get_page_content to read it.' };
    case 'arrived':
      return {
        url: outcome.url,
        title: outcome.title,
        ...(outcome.tools
          ? { tools: outcome.tools.names }
          : { note: 'Its tools are not ready yet; a tools/list_changed follows.' }),
      };
  }
}

/** The tab's tools if the page at `url` registered them. */
function ready(hub: Hub, tabId: number, url: string, names: ToolNames): NewPageTools | undefined {
  const entry = hub.tabs().find((tab) => tab.tabId === tabId);
  if (!entry?.connected || entry.url !== url) return undefined;
  const document = hub
    .toolsOf(tabId)
    .map(documentOf)
    .find((id) => id !== undefined);
  return { names: names(entry), document };
}

/** The tab's tools once the page at `url` registered them, or undefined after `timeoutMs`. */
function toolsOfPage(
  hub: Hub,
  tabId: number,
  url: string,
  names: ToolNames,
  timeoutMs: number,
): Promise<NewPageTools | undefined> {
  const now = ready(hub, tabId, url, names);
  if (now || timeoutMs <= 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const finish = (tools: NewPageTools | undefined) => {
      clearTimeout(timer);
      stop();
      resolve(tools);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const stop = hub.onToolsChanged((changed) => {
      const tools = changed === tabId ? ready(hub, tabId, url, names) : undefined;
      if (tools) finish(tools);
    });
  });
}

/** What the browser said of a tab's latest navigation since the watch began. */
interface NavigationState {
  started: boolean;
  /** The browser committed the new document: the page the call ran on is gone. */
  committed: boolean;
  /** The URL it committed, without its fragment: only that page's load completing is the new page's. */
  committedUrl?: string;
  url?: string;
  error?: string;
  complete?: chrome.tabs.Tab;
  closed: boolean;
}

interface NavigationWatch {
  /** The tab's state once `reached` holds for it; undefined if it does not within `timeoutMs`. */
  until(
    tabId: number,
    reached: (state: NavigationState) => boolean,
    timeoutMs: number,
  ): Promise<NavigationState | undefined>;
  stop(): void;
}

/** The browser's navigation events, as one watch (below) hears them. */
interface NavigationEvents {
  began(tabId: number, url: string): void;
  committed(tabId: number, url: string): void;
  failed(tabId: number, error: string): void;
  completed(tabId: number, tab: chrome.tabs.Tab): void;
  closed(tabId: number): void;
}

/** The watches of the calls in flight; the chrome listeners stay added and fan out to them. */
const listening = new Set<NavigationEvents>();
let listenersAdded = false;

/**
 * Adds the chrome listeners once, at the first call, and keeps them: adding and removing its
 * listeners per call was half of the worker's busy time on a page tool call (each is a round trip
 * to the browser process), while a listener nobody is waiting on costs a map lookup per event.
 */
function hearNavigations(): void {
  if (listenersAdded) return;
  listenersAdded = true;
  const topFrame = (details: { frameId: number; documentLifecycle?: string }) =>
    details.frameId === 0 && details.documentLifecycle !== 'prerender';
  chrome.webNavigation.onBeforeNavigate.addListener((details) => {
    if (topFrame(details)) for (const watch of listening) watch.began(details.tabId, details.url);
  });
  chrome.webNavigation.onCommitted.addListener((details) => {
    if (topFrame(details)) for (const watch of listening) watch.committed(details.tabId, details.url);
  });
  chrome.webNavigation.onErrorOccurred.addListener((details) => {
    if (topFrame(details)) for (const watch of listening) watch.failed(details.tabId, details.error);
  });
  chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.status === 'complete') for (const watch of listening) watch.completed(tabId, tab);
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    for (const watch of listening) watch.closed(tabId);
  });
}

/**
 * Hears the top-frame navigations of every tab (a hub-routed call learns its tab only from the
 * answer) from the moment it is made: webNavigation says when one begins, commits or fails (a
 * download ends as ERR_ABORTED), tabs.onUpdated when its page completed. The page can start a
 * navigation but cannot write these events. Same-document changes
 * (pushState, #fragment) begin no navigation here. A prerendered page's own events are not the tab's.
 */
function watchNavigations(): NavigationWatch {
  hearNavigations();
  const states = new Map<number, NavigationState>();
  const wakers = new Map<number, Set<() => void>>();
  const stateOf = (tabId: number): NavigationState => {
    let state = states.get(tabId);
    if (!state) {
      state = { started: false, committed: false, closed: false };
      states.set(tabId, state);
    }
    return state;
  };
  const changed = (tabId: number, change: (state: NavigationState) => void) => {
    change(stateOf(tabId));
    for (const wake of wakers.get(tabId) ?? []) wake();
  };
  const events: NavigationEvents = {
    began: (tabId, url) =>
      changed(tabId, (state) => {
        Object.assign(state, {
          started: true,
          committed: false,
          committedUrl: undefined,
          url,
          error: undefined,
          complete: undefined,
        });
      }),
    committed: (tabId, url) => {
      if (!states.get(tabId)?.started) return;
      changed(tabId, (state) => {
        Object.assign(state, { committed: true, committedUrl: withoutFragment(url), complete: undefined });
      });
    },
    failed: (tabId, error) =>
      changed(tabId, (state) => {
        state.error = error;
      }),
    completed: (tabId, tab) => {
      // The page being left may report its own load completing after the new one committed.
      const state = states.get(tabId);
      if (!state?.committed || withoutFragment(tab.url) !== state.committedUrl) return;
      changed(tabId, (now) => {
        now.complete = tab;
      });
    },
    closed: (tabId) =>
      changed(tabId, (state) => {
        state.closed = true;
      }),
  };
  listening.add(events);
  return {
    until: (tabId, reached, timeoutMs) => {
      const now = states.get(tabId);
      if (now && reached(now)) return Promise.resolve(now);
      if (timeoutMs <= 0) return Promise.resolve(now);
      return waitUntil<NavigationState | undefined>(
        (done) => {
          const wake = () => {
            const state = states.get(tabId);
            if (state && reached(state)) done(state);
          };
          const set = wakers.get(tabId) ?? new Set();
          set.add(wake);
          wakers.set(tabId, set);
          return () => set.delete(wake);
        },
        { timeoutMs, onTimeout: () => states.get(tabId) },
      );
    },
    stop: () => {
      listening.delete(events);
    },
  };
}

function withoutFragment(url: string | undefined): string | undefined {
  return url?.split('#')[0];
}
