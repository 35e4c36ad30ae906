import type { BrowserInfo, CallToolResult, TabInfo, Tool } from '@tabmcp/protocol';
import type { BrowserConnection, BrowserLauncher } from './browser-connection';
import type { ExposedPageTool } from './page-tool-names';
import type { SeenDocuments } from './seen-documents';
import type { ListedTool } from './tool-definition';

export interface TabState {
  id: number;
  title: string;
  url: string;
  tools: Tool[];
  /** Set by the extension's hub when the user has not allowed the tab's site (its tools are held back). */
  siteAccess?: TabInfo['siteAccess'];
}

export type SessionState = 'DISCONNECTED' | 'CONNECTED_NO_TABS' | 'CONNECTED_NO_FOCUS' | 'TAB_FOCUSED';

export function toTabState(tab: TabInfo): TabState {
  return {
    id: tab.id,
    title: tab.title,
    url: tab.url,
    tools: tab.tools ?? [],
    ...(tab.siteAccess ? { siteAccess: tab.siteAccess } : {}),
  };
}

interface ToolTimings {
  pageToolTimeoutMs: number;
  connectGraceMs: number;
  launchTimeoutMs: number;
  openTabToolWaitMs: number;
}

/**
 * What the core tools (core/tools/) see of the session: its state, read-only, and the few moves
 * that change it. The session alone decides what follows from a move (focus, announcements).
 */
export interface ToolSession {
  readonly connection: BrowserConnection;
  readonly launcher: BrowserLauncher | undefined;
  readonly timings: Readonly<ToolTimings>;
  readonly tabs: ReadonlyMap<number, TabState>;
  readonly focusedTabId: number | null;
  /** The focused tab's tools under the names the agent calls them by. */
  readonly pageTools: readonly ExposedPageTool[];
  readonly browser: BrowserInfo | undefined;
  /** performance.now() of the last link drop, so a relaunch does not mistake a dying browser for a live one. */
  readonly linkDroppedAt: number | undefined;
  /** Per tab, the document whose tools the agent last saw; page calls carry it. */
  readonly documents: SeenDocuments;
  /**
   * A tab's answer, as the agent gets it: the document it names is remembered, and a dialog it
   * shows (or handle_dialog's answer showing none) changes whether handle_dialog is listed, the
   * change published before this returns. `handleDialog`: the answer is handle_dialog's.
   */
  tabAnswered(tabId: number, result: CallToolResult, handleDialog?: boolean): CallToolResult;
  /** Names a page tool may not take. */
  readonly coreToolNames: ReadonlySet<string>;
  /** The fallback tools are listed: the client may not follow tools/list_changed (docs/mcp-eras.md). */
  readonly fallbackTools: boolean;
  /** The focused tab's tools as listed (list_page_tools). */
  focusedPageTools(): ListedTool[];
  /** Connects to the browser now, and again by itself after a dropped link. */
  attach(): Promise<void>;
  putTab(tab: TabState): void;
  setFocus(tabId: number | null): void;
  removeTab(tabId: number): void;
  /** The tool list may have changed: announce it if it did. */
  listMayHaveChanged(): void;
  /** The browser reported this tab closed (tab ids are never reused while a browser runs). */
  wasClosed(tabId: number): boolean;
  /** Runs the closing of a tab: the tab the browser activates in its place is not followed (--follow-focus). */
  closing<T>(work: () => Promise<T>): Promise<T>;
  /** The state now, for error texts that name only the steps it offers. */
  readonly state: SessionState;
}
