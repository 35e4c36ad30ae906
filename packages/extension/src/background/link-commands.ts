import type { Hub } from '@tabmcp/hub';
import { ErrorCode, type ExtensionToServer, errorMessage, ProtocolError, type ServerRequest } from '@tabmcp/protocol';
import { browserInfo, toTabInfo } from './tab-info';

const LOAD_TIMEOUT_MS = 30_000;
const DEFAULT_TOOL_WAIT_MS = 3_000;

/**
 * Answers each request of the tabmcp server exactly once (DESIGN.md decision 5), with chrome.tabs
 * for tab management and the hub for page tools.
 */
export function handleServerRequest(
  request: ServerRequest,
  hub: Hub,
  reply: (message: ExtensionToServer) => void,
): void {
  if (request.type === 'callTool') {
    hub.callTool(request.tabId, request.toolName, request.args, request.timeoutMs).then(
      (result) => reply({ type: 'toolResult', callId: request.callId, result }),
      (error: unknown) => reply({ type: 'toolResult', callId: request.callId, error: errorMessage(error) }),
    );
    return;
  }
  run(request, hub).then(
    (message) => reply(message),
    (error: unknown) => {
      const code = error instanceof ProtocolError ? error.code : ErrorCode.InternalError;
      reply({ type: 'response', requestId: request.requestId, error: { code, message: errorMessage(error) } });
    },
  );
}

async function run(request: Exclude<ServerRequest, { type: 'callTool' }>, hub: Hub): Promise<ExtensionToServer> {
  switch (request.type) {
    case 'connect': {
      const tabs = await chrome.tabs.query({});
      return {
        type: 'connected',
        requestId: request.requestId,
        browser: browserInfo(),
        tabs: tabs.filter((tab) => tab.id !== undefined).map((tab) => toTabInfo(tab, hub.toolsOf(tab.id ?? -1))),
      };
    }
    case 'openTab': {
      const created = await chrome.tabs.create({ url: request.url, active: request.focus });
      const tabId = created.id;
      if (tabId === undefined)
        throw new ProtocolError(ErrorCode.InternalError, 'The browser created a tab without an id');
      const loaded = await waitForLoad(tabId, LOAD_TIMEOUT_MS);
      const toolsReady = await waitForTools(hub, tabId, request.waitForToolsMs ?? DEFAULT_TOOL_WAIT_MS);
      return {
        type: 'response',
        requestId: request.requestId,
        result: { tab: toTabInfo(loaded, hub.toolsOf(tabId)), focused: request.focus, toolsReady },
      };
    }
    case 'focusTab': {
      const tab = await getTab(request.tabId);
      const updated = await chrome.tabs.update(request.tabId, { active: true });
      if (tab.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
      return {
        type: 'response',
        requestId: request.requestId,
        result: { tab: toTabInfo(updated ?? tab, hub.toolsOf(request.tabId)) },
      };
    }
    case 'pageRequest': {
      const result = await hub.pageRequest(request.tabId, request.method, request.params);
      return { type: 'response', requestId: request.requestId, result };
    }
    case 'closeTab': {
      await getTab(request.tabId);
      await chrome.tabs.remove(request.tabId);
      hub.removeTab(request.tabId, `Tab ${request.tabId} was closed`);
      return { type: 'response', requestId: request.requestId, result: { closed: true, tabId: request.tabId } };
    }
  }
}

async function getTab(tabId: number): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.get(tabId);
  } catch {
    throw new ProtocolError(ErrorCode.TabNotFound, `No tab with id ${tabId}. Call list_tabs to see the open tabs.`);
  }
}

function waitForLoad(tabId: number, timeoutMs: number): Promise<chrome.tabs.Tab> {
  return new Promise((resolve, reject) => {
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      outcome();
    };
    const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab) => {
      if (id === tabId && change.status === 'complete') finish(() => resolve(tab));
    };
    const onRemoved = (id: number) => {
      if (id === tabId)
        finish(() => reject(new ProtocolError(ErrorCode.TabNotFound, `Tab ${tabId} was closed while loading`)));
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ProtocolError(ErrorCode.RequestTimeout, `Tab ${tabId} did not finish loading within ${timeoutMs} ms`),
          ),
        ),
      timeoutMs,
    );
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
    // It may have loaded before the listeners were added.
    chrome.tabs.get(tabId).then(
      (tab) => {
        if (tab.status === 'complete') finish(() => resolve(tab));
      },
      () => {},
    );
  });
}

function waitForTools(hub: Hub, tabId: number, timeoutMs: number): Promise<boolean> {
  if (hub.hasRegistered(tabId)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(false);
    }, timeoutMs);
    const stop = hub.onToolsChanged((changedTabId) => {
      if (changedTabId !== tabId || !hub.hasRegistered(tabId)) return;
      clearTimeout(timer);
      stop();
      resolve(true);
    });
  });
}
