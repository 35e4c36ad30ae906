import type { Hub } from '@tabmcp/hub';
import {
  GETTABS_INLINE_TOOL_BYTES,
  GETTABS_INLINE_TOTAL_BYTES,
  OpenTabResult,
  type RemoteResult,
  type RemoteTabInfo,
  type TabInfo,
  validate,
} from '@tabmcp/protocol';
import { browserInfo } from '../browser-identity';
import { askBeforeConsequences } from '../confirm/confirm-gate';
import { answerAroundDialogs } from '../dialogs/dialog-gate';
import { refuseUnsafeUrl, tabInfoOf } from '../link-commands';
import { callToolReportingNavigation } from '../navigation-report';
import { reportingOpenedTabs } from '../opened-tabs';
import { isOwnPage } from '../own-pages';
import { localCommand } from './local-command';
import type { MethodHandlers } from './method-table';
import { getTab, navigateAndWait } from './navigation';
import type { TabWatch } from './tab-watch';

type TabMethods = Pick<
  MethodHandlers,
  | 'createTab'
  | 'getTabs'
  | 'selectTab'
  | 'activateTab'
  | 'closeTab'
  | 'browser_navigate'
  | 'goBack'
  | 'goForward'
  | 'listPageTools'
  | 'callPageTool'
  | 'pageRequest'
>;

/** Tabs, navigation and page tools, with chrome.tabs and the hub (the local link's commands where they exist). */
export function tabMethods(hub: Hub, watch: TabWatch): TabMethods {
  const tabResult = (tab: chrome.tabs.Tab): RemoteResult<'selectTab'> => {
    const info = inlineOrCount(tabInfoOf(hub, tab), GETTABS_INLINE_TOOL_BYTES);
    return { tabId: info.id, url: info.url, title: info.title, tab: info };
  };
  return {
    createTab: async ({ url, active, waitForToolsMs }) => {
      refuseUnsafeUrl(url);
      const raw = await localCommand(hub, { type: 'openTab', requestId: 'proxy', url, focus: active, waitForToolsMs });
      const opened = validate(OpenTabResult, raw, 'openTab result');
      if (!opened.ok) throw opened.error;
      const { toolsReady } = opened.value;
      const tab = inlineOrCount(opened.value.tab, GETTABS_INLINE_TOOL_BYTES);
      return { tabId: tab.id, url: tab.url, title: tab.title, tab, toolsReady };
    },
    getTabs: async ({ sinceVersion, waitMs }) => {
      if (sinceVersion !== undefined) await watch.wait(sinceVersion, waitMs);
      const version = watch.version;
      const tabs = await chrome.tabs.query({});
      return {
        version,
        browser: browserInfo(),
        // The extension's own pages (keep-open page, confirmation prompt) are no tabs of the agent's.
        tabs: withinInlineBudget(
          tabs.filter((tab) => tab.id !== undefined && !isOwnPage(tab)).map((tab) => tabInfoOf(hub, tab)),
        ),
      };
    },
    selectTab: async ({ tabId }) => {
      const tab = await getTab(tabId);
      return tabResult((await chrome.tabs.update(tabId, { active: true })) ?? tab);
    },
    activateTab: async ({ tabId }) => {
      await localCommand(hub, { type: 'focusTab', requestId: 'proxy', tabId });
      return tabResult(await getTab(tabId));
    },
    closeTab: async ({ tabId }) => {
      await localCommand(hub, { type: 'closeTab', requestId: 'proxy', tabId });
      return { closed: true, tabId };
    },
    browser_navigate: async ({ tabId, url }) => {
      refuseUnsafeUrl(url);
      return tabResult(await navigateAndWait(tabId, () => chrome.tabs.update(tabId, { url })));
    },
    goBack: async ({ tabId }) => tabResult(await navigateAndWait(tabId, () => chrome.tabs.goBack(tabId))),
    goForward: async ({ tabId }) => tabResult(await navigateAndWait(tabId, () => chrome.tabs.goForward(tabId))),
    listPageTools: async ({ tabId }) => {
      await getTab(tabId);
      return { tabId, tools: hub.toolsOf(tabId) };
    },
    callPageTool: async ({ tabId, name, arguments: args, timeoutMs }, { onWaiting }) =>
      // A remote agent's call passes the same gates as a local one: the person is asked first when it matters,
      // and the agent hears that its call waits for them (a notification through the proxy).
      reportingOpenedTabs(tabId, () =>
        askBeforeConsequences(
          hub,
          tabId,
          name,
          args,
          () =>
            answerAroundDialogs(tabId, name, args, () =>
              callToolReportingNavigation(hub, tabId, name, args, timeoutMs),
            ),
          { onWaiting },
        ),
      ),
    pageRequest: async ({ tabId, method, params }) =>
      (await localCommand(hub, {
        type: 'pageRequest',
        requestId: 'proxy',
        tabId,
        method,
        ...(params ? { params } : {}),
      })) ?? {},
  };
}

/** Tabs whose tools would make the answer big keep only a count; the MCP side fetches them per tab. */
function withinInlineBudget(tabs: TabInfo[]): RemoteTabInfo[] {
  let left = GETTABS_INLINE_TOTAL_BYTES;
  return tabs.map((tab) => {
    const trimmed = inlineOrCount(tab, Math.min(GETTABS_INLINE_TOOL_BYTES, left));
    if (trimmed.tools) left -= toolBytes(trimmed.tools);
    return trimmed;
  });
}

function inlineOrCount(tab: TabInfo, budget: number): RemoteTabInfo {
  if (!tab.tools || toolBytes(tab.tools) <= budget) return tab;
  const { tools, ...rest } = tab;
  return { ...rest, toolsOmitted: true, toolCount: tools.length };
}

function toolBytes(tools: NonNullable<TabInfo['tools']>): number {
  return new TextEncoder().encode(JSON.stringify(tools)).length;
}
