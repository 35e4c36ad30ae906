import {
  type BrowserInfo,
  type CallToolResult,
  documentOf,
  errorMessage,
  type Logger,
  type PageMethod,
} from '@tabmcp/protocol';
import type { BrowserConnection, BrowserEvent, BrowserLauncher } from './browser-connection';
import { ListAnnouncer } from './list-announcer';
import { callPageTool } from './page-call';
import type { PageEvent } from './page-event';
import { type ExposedPageTool, exposePageTools, originOf, presentPageTool } from './page-tool-names';
import type { PersonAsker } from './person-asker';
import { documentOfTools, SeenDocuments } from './seen-documents';
import { type CoreTool, errorResult, type ListedTool, type Progress } from './tool-definition';
import {
  ALREADY_CONNECTED,
  ALREADY_CONNECTED_NO_FOCUS,
  ALREADY_CONNECTED_NO_TABS,
  needsConnectedBrowser,
  needsFocusedTab,
  needsOpenTab,
  toolFailed,
  unknownTool,
} from './tool-errors';
import { type SessionState, type TabState, type ToolSession, toTabState } from './tool-session';
import { connectBrowserTool, connectOrLaunchBrowserTool } from './tools/connection';
import { dialogTool } from './tools/dialog';
import { fallbackTools } from './tools/fallback';
import { tabTools } from './tools/tabs';
import { WaitingDialogs } from './waiting-dialogs';

const MAX_REMEMBERED_CLOSED_TABS = 1_000;

export interface SessionOptions {
  connection: BrowserConnection;
  launcher: BrowserLauncher | undefined;
  /** Follow the tab the user activates in the browser (docs/requirements.md#local-server edge case, off by default). */
  followBrowserFocus?: boolean;
  pageToolTimeoutMs?: number;
  /** How long connect_browser waits for an extension that is still dialling in. */
  connectGraceMs?: number;
  launchTimeoutMs?: number;
  openTabToolWaitMs?: number;
  /**
   * A navigation empties a tab's tools before the new page publishes its own; the emptied list
   * waits this long, so a reload that brings the same tools back announces nothing.
   */
  navigationGraceMs?: number;
  /** For clients that ignore list_changed: every core tool in every state, plus list_page_tools and call_page_tool. */
  fallbackTools?: boolean;
  /**
   * `tabmcp --launch`: connect_browser launches Chromium when no browser is connected, unless told
   * `launch: false`. The launch waits for that first need, so a process that only initializes and
   * lists its tools (a client's health check) starts no browser.
   */
  launchByDefault?: boolean;
  log?: Logger;
}

/**
 * The state machine of docs/requirements.md#local-server. It decides which tools exist now, runs them, and
 * says when the list changed. It never touches a socket or a process: the browser connection and
 * the launcher are injected.
 */
export class BrowserSession {
  readonly #connection: BrowserConnection;
  readonly #launcher: BrowserLauncher | undefined;
  readonly #options: Required<Omit<SessionOptions, 'connection' | 'launcher' | 'log'>>;
  readonly #log: Logger;
  readonly #tabs = new Map<number, TabState>();
  #coreTools = new Map<string, CoreTool>();
  #coreToolNames: ReadonlySet<string> = new Set();
  readonly #toolSession: ToolSession;
  #connected = false;
  /** The agent asked to be connected: a dropped link reconnects by itself. */
  #wantConnected = false;
  #browser: BrowserInfo | undefined;
  /** performance.now() of the last link drop, so a relaunch does not mistake a dying browser for a live one. */
  #linkDroppedAt: number | undefined;
  #focusedTabId: number | null = null;
  #pageTools: ExposedPageTool[] = [];
  readonly #documents = new SeenDocuments();
  /** Tabs where an answer showed a dialog not answered yet: handle_dialog is listed while the focused tab has one. */
  readonly #dialogs = new WaitingDialogs();
  /** The `all` view lists handle_dialog whenever a tab is focused (keepDialogToolListed). */
  #dialogToolAlwaysListed = false;
  readonly #announcer: ListAnnouncer;
  readonly #pendingEmpty = new Map<number, ReturnType<typeof setTimeout>>();
  /** Tabs the browser reported closed, so a late reply cannot bring one back (issue 27 D3); bounded. */
  readonly #closedTabIds = new Set<number>();
  /** close_tab calls in flight: the tab the browser activates in place of a closed one is not the user's choice. */
  #closingTabs = 0;
  /**
   * Events heard while a connect is in flight: those in the same socket read as its reply arrive
   * before the reply is handled, and are applied after its snapshot instead of dropped (D26).
   */
  #heldEvents: BrowserEvent[] | undefined;
  ontoolschanged: (() => void) | undefined;
  /** Focus moved, or the focused page announced a resources/prompts change (mcp/page-resources.ts). */
  onpageevent: ((event: PageEvent) => void) | undefined;

  constructor(options: SessionOptions) {
    this.#connection = options.connection;
    this.#launcher = options.launcher;
    this.#log = options.log ?? (() => {});
    this.#options = {
      followBrowserFocus: options.followBrowserFocus ?? false,
      pageToolTimeoutMs: options.pageToolTimeoutMs ?? 30_000,
      connectGraceMs: options.connectGraceMs ?? 2_000,
      launchTimeoutMs: options.launchTimeoutMs ?? 20_000,
      openTabToolWaitMs: options.openTabToolWaitMs ?? 3_000,
      navigationGraceMs: options.navigationGraceMs ?? 1_500,
      fallbackTools: options.fallbackTools ?? false,
      launchByDefault: options.launchByDefault ?? false,
    };
    this.#toolSession = this.#exposeToTools();
    this.#pickCoreTools();
    this.#connection.on('event', (event) => this.#onEvent(event));
    this.#connection.on('down', (reason) => this.#onLinkDown(reason));
    this.#connection.on('up', () => this.#onLinkUp());
    // Not the page's document: a reload that brings the same tools back announces nothing, and a call
    // made from the list before it is refused once, saying so (seen-documents.ts).
    this.#announcer = new ListAnnouncer(
      () => this.#currentTools(),
      () => this.ontoolschanged?.(),
    );
  }

  get state(): SessionState {
    if (!this.#connected) return 'DISCONNECTED';
    if (this.#tabs.size === 0) return 'CONNECTED_NO_TABS';
    return this.#focusedTabId === null ? 'CONNECTED_NO_FOCUS' : 'TAB_FOCUSED';
  }

  /** A resources/prompts request to the focused tab's page; undefined when no tab is focused. */
  requestFocusedPage(method: PageMethod, params?: Record<string, unknown>): Promise<unknown> | undefined {
    return this.#focusedTabId === null ? undefined : this.#connection.pageRequest(this.#focusedTabId, method, params);
  }

  /** Where the focused page's text comes from, to mark its resources and prompts (issue 13). */
  focusedPageOrigin(): string | undefined {
    const tab = this.#focusedTabId === null ? undefined : this.#tabs.get(this.#focusedTabId);
    return tab ? originOf(tab.url) : undefined;
  }

  get focusedTabId(): number | null {
    return this.#focusedTabId;
  }

  /** mcp-view.ts: a 2026-07-28 client without a tools listen stream gets the fallback tools. */
  setAutoFallback(on: boolean): void {
    if (this.#options.fallbackTools === on) return;
    this.#options.fallbackTools = on;
    this.#pickCoreTools();
    // The core names changed: a page tool named like a new one (call_page_tool) is renamed (issue 27 D21).
    this.#refreshPageTools();
  }

  /**
   * The `all` view: its page calls go by hub name to a tab the hub picks, so their answers cannot
   * list handle_dialog for a tab; it stays listed while a tab is focused (docs/decisions.md, 354).
   */
  keepDialogToolListed(): void {
    this.#dialogToolAlwaysListed = true;
    this.#announcer.schedule();
  }

  /** docs/requirements.md, "Tool Availability by State". The agent reads this list: its page's document is remembered. */
  listTools(): ListedTool[] {
    const tab = this.#focusedTab();
    if (tab) this.#documents.listed(tab.id, tab.tools);
    return this.#currentTools();
  }

  #focusedTab(): TabState | undefined {
    return this.#focusedTabId === null ? undefined : this.#tabs.get(this.#focusedTabId);
  }

  #currentTools(): ListedTool[] {
    const names = this.#options.fallbackTools ? [...this.#coreTools.keys()] : this.#listedCoreNames();
    const core = names.map((name) => this.#listCore(name));
    const tab = this.#focusedTab();
    if (!tab) return core;
    const origin = originOf(tab.url);
    return [...core, ...this.#pageTools.map(({ exposedName, tool }) => presentPageTool(tool, exposedName, origin))];
  }

  async callTool(name: string, args: Record<string, unknown>, progress: Progress = () => {}): Promise<CallToolResult> {
    const core = this.#coreTools.get(name);
    if (core) {
      if (!this.#availableCoreNames().includes(name)) return errorResult(this.#unavailableReason(name));
      try {
        const run = () => core.run(args, this.#toolSession, progress);
        // Only a tool that moves the state holds announcements back: a slow page call through
        // call_page_tool, or list_tabs, leaves every other change announced at once (issue 27 D22).
        return await (core.transition ? this.#announcer.transition(run) : run());
      } catch (error) {
        return errorResult(toolFailed(name, errorMessage(error), this.state));
      }
    }
    const page = this.#pageTools.find((entry) => entry.exposedName === name);
    if (!page || this.#focusedTabId === null) return errorResult(unknownTool(name, this.state));
    return callPageTool(this.#toolSession, this.#focusedTabId, page.tool, args, progress);
  }

  setPersonAsker(asker: PersonAsker): void {
    this.#connection.personAsker = asker;
  }

  /** The `all` view holds its own announcements for these too (views/all-view.ts). */
  isTransition(name: string): boolean {
    return this.#coreTools.get(name)?.transition === true;
  }

  #pickCoreTools(): void {
    const connect = this.#options.launchByDefault ? connectOrLaunchBrowserTool : connectBrowserTool;
    const tools = [connect, ...tabTools, dialogTool, ...(this.#options.fallbackTools ? fallbackTools : [])];
    this.#coreTools = new Map(tools.map((tool) => [tool.listed.name, tool]));
    this.#coreToolNames = new Set(this.#coreTools.keys());
  }

  /** The session as its tools see it (tool-session.ts). */
  #exposeToTools(): ToolSession {
    const session = this;
    return {
      connection: this.#connection,
      launcher: this.#launcher,
      timings: this.#options,
      tabs: this.#tabs,
      get focusedTabId() {
        return session.#focusedTabId;
      },
      get pageTools() {
        return session.#pageTools;
      },
      get browser() {
        return session.#browser;
      },
      get linkDroppedAt() {
        return session.#linkDroppedAt;
      },
      get coreToolNames() {
        return session.#coreToolNames;
      },
      get fallbackTools() {
        return session.#options.fallbackTools;
      },
      documents: this.#documents,
      tabAnswered: (tabId, result, handleDialog = false) => this.#tabAnswered(tabId, result, handleDialog),
      focusedPageTools: () => this.listTools().filter((tool) => !this.#coreToolNames.has(tool.name)),
      attach: async () => {
        this.#wantConnected = true;
        await this.#establish();
      },
      putTab: (tab) => this.#tabs.set(tab.id, tab),
      setFocus: (tabId) => this.#setFocus(tabId),
      removeTab: (tabId) => this.#removeTab(tabId),
      listMayHaveChanged: () => this.#announcer.schedule(),
      wasClosed: (tabId) => this.#closedTabIds.has(tabId),
      closing: async (work) => {
        this.#closingTabs++;
        try {
          return await work();
        } finally {
          this.#closingTabs--;
        }
      },
      get state() {
        return session.state;
      },
    };
  }

  #tabAnswered(tabId: number, result: CallToolResult, handleDialog: boolean): CallToolResult {
    const tab = this.#tabs.get(tabId);
    // The dialog showed in the document that answered, else in the one whose tools the tab has.
    const document = documentOf(result) ?? documentOfTools(tab?.tools ?? []);
    const changed = tab !== undefined && this.#dialogs.answered(tabId, result, { handleDialog, document });
    if (changed && tabId === this.#focusedTabId) this.#announcer.now();
    return this.#documents.answered(tabId, result);
  }

  /** Listed now: the ones offered, less handle_dialog while no answer's dialog waits in the focused tab. */
  #listedCoreNames(): string[] {
    const dialogWaits = this.#dialogToolAlwaysListed || this.#dialogs.has(this.#focusedTabId);
    return this.#availableCoreNames().filter(
      (name) => dialogWaits || !this.#coreTools.get(name)?.listedWhileDialogWaits,
    );
  }

  /** The core tools whose definitions say the state now offers them (callable, listed or not), in definition order. */
  #availableCoreNames(): string[] {
    const state = this.state;
    return [...this.#coreTools.values()].filter((tool) => tool.offeredIn.has(state)).map((tool) => tool.listed.name);
  }

  #unavailableReason(name: string): string {
    switch (this.state) {
      case 'DISCONNECTED':
        return needsConnectedBrowser(name);
      case 'CONNECTED_NO_TABS':
        return name === 'connect_browser' ? ALREADY_CONNECTED_NO_TABS : needsOpenTab(name);
      case 'CONNECTED_NO_FOCUS':
        return name === 'connect_browser' ? ALREADY_CONNECTED_NO_FOCUS : needsFocusedTab(name);
      default:
        return ALREADY_CONNECTED;
    }
  }

  #listCore(name: string): ListedTool {
    const tool = this.#coreTools.get(name);
    if (!tool) throw new Error(`no core tool ${name}`);
    return tool.listed;
  }

  async #establish(): Promise<void> {
    // Each attempt holds its own events: a second connect (a reconnect racing the first) must not
    // find the first's buffer gone.
    const held: BrowserEvent[] = [];
    this.#heldEvents = held;
    let reply: Awaited<ReturnType<BrowserConnection['connect']>>;
    try {
      reply = await this.#connection.connect();
    } finally {
      if (this.#heldEvents === held) this.#heldEvents = undefined;
      queueMicrotask(() => {
        for (const event of held) this.#onEvent(event);
      });
    }
    const { browser, tabs } = reply;
    this.#browser = browser;
    const previousFocus = this.#focusedTabId;
    this.#tabs.clear();
    this.#dialogs.clear();
    for (const tab of tabs) this.#tabs.set(tab.id, toTabState(tab));
    this.#connected = true;
    // After a reconnect (worker restart) keep the agent's focus if its tab survived.
    this.#setFocus(previousFocus !== null && this.#tabs.has(previousFocus) ? previousFocus : null);
  }

  #removeTab(tabId: number): void {
    this.#cancelPendingEmpty(tabId);
    this.#documents.forget(tabId);
    this.#dialogs.forget(tabId);
    this.#tabs.delete(tabId);
    if (this.#focusedTabId === tabId) this.#setFocus(null);
    else this.#announcer.schedule();
  }

  #setFocus(tabId: number | null): void {
    const changed = this.#focusedTabId !== tabId;
    this.#focusedTabId = tabId;
    this.#refreshPageTools();
    if (changed) this.onpageevent?.({ type: 'focus' });
  }

  #refreshPageTools(): void {
    const tab = this.#focusedTabId === null ? undefined : this.#tabs.get(this.#focusedTabId);
    this.#pageTools = tab ? exposePageTools(tab.tools, this.#coreToolNames) : [];
    this.#announcer.schedule();
  }

  #onEvent(event: BrowserEvent): void {
    if (this.#heldEvents && !this.#connected) {
      this.#heldEvents.push(event);
      return;
    }
    if (!this.#connected) return;
    switch (event.type) {
      case 'tabCreated':
      case 'tabUpdated': {
        const existing = this.#tabs.get(event.tab.id);
        // Tools belong to the page that published them: a tab now at another origin keeps none of
        // the old page's, which would otherwise be listed under the new origin's marker (D4).
        const sameOrigin = existing !== undefined && originOf(existing.url) === originOf(event.tab.url);
        if (existing && !sameOrigin) this.#cancelPendingEmpty(event.tab.id);
        this.#tabs.set(event.tab.id, { ...toTabState(event.tab), tools: sameOrigin ? existing.tools : [] });
        if (event.tab.id === this.#focusedTabId && existing && !sameOrigin) this.#refreshPageTools();
        else this.#announcer.schedule();
        return;
      }
      case 'tabClosed':
        this.#rememberClosed(event.tabId);
        if (this.#tabs.has(event.tabId)) this.#removeTab(event.tabId);
        return;
      case 'toolsChanged':
      case 'tabFocused': {
        const tab = this.#tabs.get(event.tabId);
        if (event.type === 'toolsChanged' && tab && event.tools.length === 0 && tab.tools.length > 0) {
          this.#holdEmptyTools(event.tabId);
          return;
        }
        this.#cancelPendingEmpty(event.tabId);
        if (tab) this.#setTools(tab, event.tools);
        const follow = event.type === 'tabFocused' && this.#options.followBrowserFocus && this.#closingTabs === 0;
        if (follow && tab) this.#setFocus(event.tabId);
        else if (event.tabId === this.#focusedTabId) this.#refreshPageTools();
        return;
      }
      case 'pageNotification':
        if (event.tabId === this.#focusedTabId)
          this.onpageevent?.({
            type: 'notification',
            method: event.method,
            ...(event.params ? { params: event.params } : {}),
          });
        return;
    }
  }

  #rememberClosed(tabId: number): void {
    this.#closedTabIds.add(tabId);
    if (this.#closedTabIds.size > MAX_REMEMBERED_CLOSED_TABS) {
      const oldest = this.#closedTabIds.values().next().value;
      if (oldest !== undefined) this.#closedTabIds.delete(oldest);
    }
  }

  /** Applies an emptied tool list only if the tab's next page publishes nothing within the grace. */
  #holdEmptyTools(tabId: number): void {
    if (this.#pendingEmpty.has(tabId)) return;
    const timer = setTimeout(() => {
      this.#pendingEmpty.delete(tabId);
      const tab = this.#tabs.get(tabId);
      if (!tab) return;
      this.#setTools(tab, []);
      if (tabId === this.#focusedTabId) this.#refreshPageTools();
    }, this.#options.navigationGraceMs);
    timer.unref?.();
    this.#pendingEmpty.set(tabId, timer);
  }

  /** A tab's tools from its page: none, or another document's, mean the page a dialog waited in is gone. */
  #setTools(tab: TabState, tools: TabState['tools']): void {
    tab.tools = tools;
    this.#dialogs.toolsChanged(tab.id, tools);
  }

  #cancelPendingEmpty(tabId: number): void {
    clearTimeout(this.#pendingEmpty.get(tabId));
    this.#pendingEmpty.delete(tabId);
  }

  #onLinkDown(reason: string): void {
    this.#log('session.disconnected', { reason });
    this.#linkDroppedAt = performance.now();
    for (const tabId of [...this.#pendingEmpty.keys()]) this.#cancelPendingEmpty(tabId);
    if (!this.#connected) return;
    this.#connected = false;
    this.#tabs.clear();
    this.#dialogs.clear();
    this.#pageTools = [];
    this.#announcer.schedule();
  }

  #onLinkUp(): void {
    if (!this.#wantConnected || this.#connected) return;
    this.#establish().then(
      () => this.#log('link.recovered', { tabs: this.#tabs.size }),
      (error: unknown) => this.#log('link.recover-failed', { error: errorMessage(error) }),
    );
  }
}
