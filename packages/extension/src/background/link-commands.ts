import { type Hub, siteOf } from '@tabmcp/hub';
import {
  ErrorCode,
  type ExtensionToServer,
  errorMessage,
  isOpenableUrl,
  OPENABLE_URLS,
  PAGE_LOAD_BUDGET_MS,
  type PersonWait,
  ProtocolError,
  type ServerRequest,
  waitUntil,
} from '@tabmcp/protocol';
import { browserInfo } from './browser-identity';
import { askBeforeConsequences } from './confirm/confirm-gate';
import { setAgentConfirmMode } from './confirm/policy-store';
import { answerAroundDialogs } from './dialogs/dialog-gate';
import { setServerInputMode } from './input-mode';
import { keepWindowOpen, openAgentTab } from './keep-open';
import { callHubToolReportingNavigation, callToolReportingNavigation } from './navigation-report';
import { reportingOpenedTabs } from './opened-tabs';
import { isOwnPage } from './own-pages';
import { READY_CAP_MS, waitForPageReady } from './page-ready';
import { toTabInfo } from './tab-info';
import { openTabAndWaitForLoad } from './tab-load';
import { watchTabRequests } from './tab-requests';

const DEFAULT_TOOL_WAIT_MS = 3_000;

/** The server's requests but those about the `all` view list, which hub-catalog-feed.ts answers per link. */
export type LinkCommand = Exclude<ServerRequest, { type: 'listHubTools' | 'unwatchHubTools' }>;

/**
 * Answers each request of the tabmcp server exactly once (docs/requirements.md#founding-decisions, decision 5), with chrome.tabs
 * for tab management and the hub for page tools.
 */
export function handleServerRequest(request: LinkCommand, hub: Hub, reply: (message: ExtensionToServer) => void): void {
  if (request.type === 'callTool') {
    const { tabId, toolName, args, timeoutMs, askClient, confirmed } = request;
    // The person is asked first when the call is consequential (confirm/confirm-gate.ts), then it runs.
    reportingOpenedTabs(tabId, () =>
      askBeforeConsequences(
        hub,
        tabId,
        toolName,
        args,
        () =>
          answerAroundDialogs(tabId, toolName, args, () =>
            callToolReportingNavigation(hub, tabId, toolName, args, timeoutMs),
          ),
        // Mid-call word that the call waits for the person: its server tells the agent (MCP progress).
        {
          askClient,
          confirmed,
          onWaiting: (wait) => reply({ type: 'waitingForPerson', requestId: request.callId, wait }),
        },
      ),
    ).then(
      (result) => reply({ type: 'toolResult', callId: request.callId, result }),
      (error: unknown) => reply({ type: 'toolResult', callId: request.callId, ...toolError(error) }),
    );
    return;
  }
  if (request.type === 'callHubTool') {
    const onWaiting = (wait: PersonWait) => reply({ type: 'waitingForPerson', requestId: request.requestId, wait });
    callHubToolReportingNavigation(hub, request.name, request.args, request.timeoutMs, onWaiting).then(
      (result) => reply({ type: 'response', requestId: request.requestId, result }),
      (error: unknown) => reply({ type: 'response', requestId: request.requestId, error: toErrorObject(error) }),
    );
    return;
  }
  run(request, hub).then(
    (message) => reply(message),
    (error: unknown) => reply({ type: 'response', requestId: request.requestId, error: toErrorObject(error) }),
  );
}

function toolError(error: unknown): { error: string; code: number } {
  const { code, message } = toErrorObject(error);
  return { error: message, code };
}

function toErrorObject(error: unknown): { code: number; message: string } {
  const code = error instanceof ProtocolError ? error.code : ErrorCode.InternalError;
  return { code, message: errorMessage(error) };
}

/** A tab as the server sees it: its visible tools, and whether its site is allowed once it has tools. */
export function tabInfoOf(hub: Hub, tab: chrome.tabs.Tab): ReturnType<typeof toTabInfo> {
  const id = tab.id ?? -1;
  const access = hub.hasRegistered(id)
    ? hub.siteAccess(hub.tabs().find((entry) => entry.tabId === id)?.url)
    : undefined;
  // A page of a site the user has not allowed still names its tab: that title is marked as such.
  const url = tab.pendingUrl ?? tab.url;
  const notAllowedYet = siteOf(url) !== undefined && hub.siteAccess(url) !== 'allowed';
  return toTabInfo(tab, hub.toolsOf(id), access, notAllowedYet);
}

async function run(
  request: Exclude<LinkCommand, { type: 'callTool' | 'callHubTool' }>,
  hub: Hub,
): Promise<ExtensionToServer> {
  switch (request.type) {
    case 'connect': {
      setServerInputMode(request.input);
      setAgentConfirmMode(request.confirm);
      const tabs = await chrome.tabs.query({});
      return {
        type: 'connected',
        requestId: request.requestId,
        browser: browserInfo(),
        tabs: tabs.filter((tab) => tab.id !== undefined && !isOwnPage(tab)).map((tab) => tabInfoOf(hub, tab)),
      };
    }
    case 'openTab': {
      refuseUnsafeUrl(request.url);
      // Heard from before the tab exists: the page's first requests are part of its load.
      const requests = watchTabRequests();
      try {
        const loaded = await openTabAndWaitForLoad(() => openAgentTab(request.url, request.focus), PAGE_LOAD_BUDGET_MS);
        const loadedAt = Date.now();
        const readyBy = loadedAt + READY_CAP_MS;
        const tabId = loaded.id ?? -1;
        // about:blank, data: and the like get no content script: nothing will register, so nothing is awaited.
        if (!mayRunContentScript(loaded))
          return openTabAnswer(request, hub, loaded, { toolsReady: false, stillBusy: undefined });
        const [toolsReady] = await Promise.all([
          waitForTools(hub, tabId, request.waitForToolsMs ?? DEFAULT_TOOL_WAIT_MS),
          requests.quiet(tabId, readyBy),
        ]);
        const stillBusy = toolsReady
          ? await waitForPageReady(hub, tabId, requests, { loadedAt, deadline: readyBy })
          : undefined;
        // The title may have been set by the page once it loaded.
        const now = await chrome.tabs.get(tabId).catch(() => loaded);
        return openTabAnswer(request, hub, now, { toolsReady, stillBusy });
      } finally {
        requests.stop();
      }
    }
    case 'focusTab': {
      const tab = await getTab(request.tabId);
      const updated = await chrome.tabs.update(request.tabId, { active: true });
      if (tab.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
      return {
        type: 'response',
        requestId: request.requestId,
        result: { tab: tabInfoOf(hub, updated ?? tab) },
      };
    }
    case 'pageRequest': {
      const result = await hub.pageRequest(request.tabId, request.method, request.params);
      return { type: 'response', requestId: request.requestId, result };
    }
    case 'closeTab': {
      const tab = await getTab(request.tabId);
      await keepWindowOpen(tab);
      await chrome.tabs.remove(request.tabId);
      hub.removeTab(request.tabId, `Tab ${request.tabId} was closed`);
      return { type: 'response', requestId: request.requestId, result: { closed: true, tabId: request.tabId } };
    }
  }
}

function openTabAnswer(
  request: Extract<LinkCommand, { type: 'openTab' }>,
  hub: Hub,
  tab: chrome.tabs.Tab,
  readiness: { toolsReady: boolean; stillBusy: string | undefined },
): ExtensionToServer {
  const { toolsReady, stillBusy } = readiness;
  return {
    type: 'response',
    requestId: request.requestId,
    result: { tab: tabInfoOf(hub, tab), focused: request.focus, toolsReady, ...(stillBusy ? { stillBusy } : {}) },
  };
}

/** The URL policy of shared-rules.ts (@tabmcp/protocol), which the server applies too. */
export function refuseUnsafeUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProtocolError(ErrorCode.InvalidParams, `"${url.slice(0, 200)}" is not a valid URL`);
  }
  if (!isOpenableUrl(parsed)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Refusing to open "${url.slice(0, 200)}": only ${OPENABLE_URLS} can be opened, never the browser's own pages.`,
    );
  }
}

async function getTab(tabId: number): Promise<chrome.tabs.Tab> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab || isOwnPage(tab))
    throw new ProtocolError(ErrorCode.TabNotFound, `No tab with id ${tabId}. Call list_tabs to see the open tabs.`);
  return tab;
}

/** The manifest's content scripts match `<all_urls>`: http:, https: and (when the user allows it) file: pages. */
function mayRunContentScript(tab: chrome.tabs.Tab): boolean {
  const url = tab.url ?? '';
  return /^(https?|file):/.test(url);
}

function waitForTools(hub: Hub, tabId: number, timeoutMs: number): Promise<boolean> {
  if (hub.hasRegistered(tabId)) return Promise.resolve(true);
  return waitUntil<boolean>(
    (done) =>
      hub.onToolsChanged((changedTabId) => {
        if (changedTabId === tabId && hub.hasRegistered(tabId)) done(true);
      }),
    { timeoutMs, onTimeout: () => false },
  );
}
