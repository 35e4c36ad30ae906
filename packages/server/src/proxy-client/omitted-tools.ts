import { errorMessage, type Logger, type RemoteTabInfo, type TabInfo } from '@tabmcp/protocol';

type Tools = NonNullable<TabInfo['tools']>;
/** Where a tab's tools come from when getTabs left them out, with the answer's place (ProxyRpc's heardAt). */
export type ToolFetcher = (tabId: number) => Promise<{ tools: Tools; heardAt: number }>;

/**
 * Tabs whose tools getTabs left out (too big to ride along) get them from listPageTools, one tab per
 * frame. A tab whose tools alone exceed the proxy's frame limit is listed with none, and the log says why.
 * `heardAt`: the place of the answer that listed the tabs; the result's is that of the newest answer used.
 */
export async function withTools(
  tabs: readonly RemoteTabInfo[],
  heardAt: number,
  fetchTools: ToolFetcher,
  log: Logger,
): Promise<{ tabs: TabInfo[]; heardAt: number }> {
  let newest = heardAt;
  const fetchNoting: ToolFetcher = async (tabId) => {
    const fetched = await fetchTools(tabId);
    newest = Math.max(newest, fetched.heardAt);
    return fetched;
  };
  const listed = await Promise.all(tabs.map((tab) => withToolsOf(tab, fetchNoting, log)));
  return { tabs: listed, heardAt: newest };
}

/** A call's tab with its tools (fetched when the answer left them out), and the place of the newest answer used. */
export async function tabWithTools(
  answer: { value: { tab: RemoteTabInfo }; heardAt: number },
  fetchTools: ToolFetcher,
  log: Logger,
): Promise<{ tab: TabInfo; heardAt: number }> {
  let heardAt = answer.heardAt;
  const fetchNoting: ToolFetcher = async (tabId) => {
    const fetched = await fetchTools(tabId);
    heardAt = fetched.heardAt;
    return fetched;
  };
  const tab = await withToolsOf(answer.value.tab, fetchNoting, log);
  return { tab, heardAt };
}

/** One tab of withTools. */
async function withToolsOf(remote: RemoteTabInfo, fetchTools: ToolFetcher, log: Logger): Promise<TabInfo> {
  const { toolsOmitted, toolCount, ...tab } = remote;
  if (!toolsOmitted) return tab;
  try {
    return { ...tab, tools: (await fetchTools(tab.id)).tools };
  } catch (error) {
    log('proxy.tools-unavailable', { tabId: tab.id, toolCount, error: errorMessage(error) });
    return { ...tab, tools: [] };
  }
}
