import { type CallToolResult, ErrorCode, isOpenableUrl, ProtocolError, type TabInfo } from '@tabmcp/protocol';
import { z } from 'zod';
import type { BrowserConnection } from '../browser-connection';
import { exposePageTools } from '../page-tool-names';
import { defineTool, errorResult, jsonResult, type Progress } from '../tool-definition';
import { invalidUrl, noSuchTab, nothingToClose, refusedUrl, tabClosedWhileOpening, tabGone } from '../tool-errors';
import { type ToolSession, toTabState } from '../tool-session';

const tabId = z.number().int().nonnegative();

export const tabTools = [
  defineTool({
    name: 'list_tabs',
    offeredIn: ['CONNECTED_NO_TABS', 'CONNECTED_NO_FOCUS', 'TAB_FOCUSED'],
    title: 'List tabs',
    description: 'List the open tabs with their tool counts; focused marks the tab whose tools are listed.',
    input: z.object({}).strict(),
    annotations: { readOnlyHint: true, idempotentHint: true },
    handler: async (_args, session) => jsonResult(listTabs(session)),
  }),
  defineTool({
    name: 'open_tab',
    offeredIn: ['CONNECTED_NO_TABS', 'CONNECTED_NO_FOCUS', 'TAB_FOCUSED'],
    transition: true,
    title: 'Open a tab',
    description: "Open a URL in a new tab; focused (the default), its page's tools join the tool list.",
    input: z
      .object({
        url: z.string().min(1).describe('http(s), file or data URL, or about:blank'),
        focus: z.boolean().default(true),
      })
      .strict(),
    handler: ({ url, focus }, session, progress) => openTab(session, url, focus, progress),
  }),
  defineTool({
    name: 'focus_tab',
    offeredIn: ['CONNECTED_NO_FOCUS', 'TAB_FOCUSED'],
    transition: true,
    title: 'Focus a tab',
    description: "Focus a tab by id from list_tabs: its page's tools replace the previous tab's.",
    input: z.object({ tabId }).strict(),
    annotations: { idempotentHint: true },
    handler: ({ tabId }, session) => focusTab(session, tabId),
  }),
  defineTool({
    name: 'close_tab',
    offeredIn: ['TAB_FOCUSED'],
    transition: true,
    title: 'Close a tab',
    description: 'Close a tab by id (default: the focused tab); its tools go with it.',
    input: z.object({ tabId: tabId.optional() }).strict(),
    annotations: { destructiveHint: true },
    handler: ({ tabId }, session) => closeTab(session, tabId),
  }),
];

function listTabs(session: ToolSession) {
  return {
    tabs: [...session.tabs.values()].map((tab) => ({
      id: tab.id,
      title: tab.title,
      url: tab.url,
      focused: tab.id === session.focusedTabId,
      toolCount: tab.tools.length,
      ...siteNote(tab),
    })),
    focusedTabId: session.focusedTabId,
  };
}

async function openTab(session: ToolSession, url: string, focus: boolean, progress: Progress): Promise<CallToolResult> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return errorResult(invalidUrl(url));
  }
  if (!isOpenableUrl(parsed)) return errorResult(refusedUrl(url));
  progress(`Opening ${parsed.href}`);
  const started = Date.now();
  // Pages can take seconds to load: tell the client the call is alive.
  const ticker = setInterval(
    () => progress(`Waiting for ${parsed.href} to load (${Math.round((Date.now() - started) / 1000)} s)`),
    1_000,
  );
  let opened: Awaited<ReturnType<BrowserConnection['openTab']>>;
  try {
    opened = await session.connection.openTab(parsed.href, focus, session.timings.openTabToolWaitMs);
  } finally {
    clearInterval(ticker);
  }
  // The page closed itself before the answer came: adding it back would focus a tab that is gone (D3).
  if (session.wasClosed(opened.tab.id)) {
    session.listMayHaveChanged();
    return errorResult(tabClosedWhileOpening(opened.tab.id, parsed.href, session.tabs.keys()));
  }
  const existing = session.tabs.get(opened.tab.id);
  const tab = toTabState(opened.tab);
  // Tool updates may have raced ahead of this reply (the connection hands the later list: link-endpoint.ts);
  // an empty reply does not clear the tools the page already published.
  if (existing && existing.tools.length > 0 && tab.tools.length === 0) tab.tools = existing.tools;
  session.putTab(tab);
  if (focus) session.setFocus(tab.id);
  else session.listMayHaveChanged();
  const held = siteNote(session.tabs.get(tab.id) ?? tab);
  return jsonResult({
    tab: { id: tab.id, title: tab.title, url: tab.url },
    focused: focus,
    ...(focus
      ? focusedTools(session)
      : // Not focused, no list brings them: the names the agent will call them by once it focuses the tab.
        { toolsAvailable: exposePageTools(tab.tools, session.coreToolNames).map((entry) => entry.exposedName) }),
    ...(held.note
      ? held
      : opened.toolsReady
        ? busyNote(opened.stillBusy)
        : {
            note: 'The page published no tools yet; they appear with a tools/list_changed notification if it does.',
          }),
  });
}

async function focusTab(session: ToolSession, tabId: number): Promise<CallToolResult> {
  if (!session.tabs.has(tabId)) return errorResult(noSuchTab(tabId, session.tabs.keys()));
  let tab: TabInfo;
  try {
    ({ tab } = await session.connection.focusTab(tabId));
  } catch (error) {
    // The browser no longer has it (closed while the event was on its way): forget it too.
    if (!(error instanceof ProtocolError && error.code === ErrorCode.TabNotFound)) throw error;
    session.removeTab(tabId);
    return errorResult(tabGone(tabId, session.tabs.keys()));
  }
  const state = session.tabs.get(tabId);
  // It closed while the browser was focusing it: focus stays off a tab that is gone (D15).
  if (!state) return errorResult(tabGone(tabId, session.tabs.keys()));
  Object.assign(state, { title: tab.title, url: tab.url });
  session.setFocus(tabId);
  return jsonResult({
    success: true,
    tab: { id: tabId, title: tab.title, url: tab.url },
    ...focusedTools(session),
    ...siteNote(state),
  });
}

async function closeTab(session: ToolSession, requested: number | undefined): Promise<CallToolResult> {
  const tabId = requested ?? session.focusedTabId;
  if (tabId === null || !session.tabs.has(tabId)) return errorResult(nothingToClose(tabId));
  try {
    await session.closing(() => session.connection.closeTab(tabId));
  } catch (error) {
    if (!(error instanceof ProtocolError && error.code === ErrorCode.TabNotFound)) throw error;
  }
  session.removeTab(tabId);
  return jsonResult({ closed: true, tabId });
}

/**
 * The focused tab's tools as open_tab and focus_tab give them. The tools/list_changed that follows
 * brings their names and descriptions, so the answer gives their count; where the client may not
 * follow list changes (the fallback tools are on: docs/mcp-eras.md), their names, for call_page_tool.
 */
function focusedTools(session: ToolSession): { toolCount: number } | { toolsAvailable: string[] } {
  const names = session.pageTools.map((entry) => entry.exposedName);
  return session.fallbackTools ? { toolsAvailable: names } : { toolCount: names.length };
}

/** A page still loading or changing when open_tab's readiness bound came (docs/dom-tools.md, "When open_tab answers"). */
function busyNote(stillBusy: string | undefined): { note?: string } {
  if (!stillBusy) return {};
  return {
    note: `The page was still busy 3 s after its load (${stillBusy}); these are its tools as it stood. If they change, a tools/list_changed follows.`,
  };
}

/** Why a tab's tools are held back, and the step that releases them (list_tabs, open_tab, focus_tab). */
function siteNote(tab: { siteAccess?: string }): { note?: string } {
  if (!tab.siteAccess || tab.siteAccess === 'allowed') return {};
  return {
    note: `Its tools are held back: the site is ${tab.siteAccess === 'blocked' ? 'blocked' : 'not allowed yet'}. The user allows it in the tabmcp popup (toolbar icon); the tools then appear with a tools/list_changed notification.`,
  };
}
