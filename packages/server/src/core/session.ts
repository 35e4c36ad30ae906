import {
  type BrowserInfo,
  type CallToolResult,
  checkPageArguments,
  ErrorCode,
  errorMessage,
  type Logger,
  type PageMethod,
  ProtocolError,
  type TabInfo,
  type Tool,
} from '@tabmcp/protocol';
import { z } from 'zod';
import type { BrowserConnection, BrowserEvent, BrowserLauncher } from './browser-connection';
import { ListAnnouncer } from './list-announcer';
import type { PageEvent } from './page-event';
import { type ExposedPageTool, exposePageTools, originOf, presentPageTool } from './page-tool-names';
import { errorResult, jsonResult, type Progress, type ToolDefinition } from './tool-definition';

export interface SessionOptions {
  connection: BrowserConnection;
  launcher: BrowserLauncher | undefined;
  /** Follow the tab the user activates in the browser (browser-mcp-server.md edge case, off by default). */
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

interface TabState {
  id: number;
  title: string;
  url: string;
  tools: Tool[];
  /** Set by the extension's hub when the user has not allowed the tab's site (its tools are held back). */
  siteAccess?: TabInfo['siteAccess'];
}

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: Record<string, unknown>;
}

const NO_BROWSER_INSTRUCTIONS =
  'Open Chrome or Chromium with the tabmcp extension enabled (see the README, "Use your own Chrome"), or call connect_browser with launch=true to start a fresh Chromium with the extension.';

const ALLOWED_URL_PROTOCOLS = new Set(['http:', 'https:', 'file:', 'about:', 'data:']);

/**
 * The state machine of browser-mcp-server.md. It decides which tools exist now, runs them, and
 * says when the list changed. It never touches a socket or a process: the browser connection and
 * the launcher are injected.
 */
export class BrowserSession {
  readonly #connection: BrowserConnection;
  readonly #launcher: BrowserLauncher | undefined;
  readonly #options: Required<Omit<SessionOptions, 'connection' | 'launcher' | 'log'>>;
  readonly #log: Logger;
  readonly #tabs = new Map<number, TabState>();
  #coreTools: Map<string, ToolDefinition>;
  #connected = false;
  /** The agent asked to be connected: a dropped link reconnects by itself. */
  #wantConnected = false;
  #browser: BrowserInfo | undefined;
  /** performance.now() of the last link drop, so a relaunch does not mistake a dying browser for a live one. */
  #linkDroppedAt: number | undefined;
  #focusedTabId: number | null = null;
  #pageTools: ExposedPageTool[] = [];
  readonly #announcer: ListAnnouncer;
  readonly #pendingEmpty = new Map<number, ReturnType<typeof setTimeout>>();
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
    this.#coreTools = new Map(this.#defineCoreTools().map((tool) => [tool.name, tool]));
    this.#connection.onevent = (event) => this.#onEvent(event);
    this.#connection.ondown = (reason) => this.#onLinkDown(reason);
    this.#connection.onup = () => this.#onLinkUp();
    this.#announcer = new ListAnnouncer(
      () => this.listTools(),
      () => this.ontoolschanged?.(),
    );
  }

  get state(): 'DISCONNECTED' | 'CONNECTED_NO_TABS' | 'CONNECTED_NO_FOCUS' | 'TAB_FOCUSED' {
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
    this.#coreTools = new Map(this.#defineCoreTools().map((tool) => [tool.name, tool]));
    this.#announcer.schedule();
  }

  /** browser-mcp-server.md, "Tool Availability by State". */
  listTools(): ListedTool[] {
    const names = this.#options.fallbackTools ? [...this.#coreTools.keys()] : this.#availableCoreNames();
    const core = names.map((name) => this.#listCore(name));
    const tab = this.#focusedTabId === null ? undefined : this.#tabs.get(this.#focusedTabId);
    if (!tab) return core;
    const origin = originOf(tab.url);
    return [...core, ...this.#pageTools.map(({ exposedName, tool }) => presentPageTool(tool, exposedName, origin))];
  }

  async callTool(name: string, args: Record<string, unknown>, progress: Progress = () => {}): Promise<CallToolResult> {
    const core = this.#coreTools.get(name);
    if (core) {
      if (!this.#availableCoreNames().includes(name)) return errorResult(this.#unavailableReason(name));
      const parsed = core.input.safeParse(args);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
        return errorResult(`Invalid arguments for ${name}: ${problems.join('; ')}`);
      }
      try {
        return await this.#announcer.transition(() => core.run(parsed.data, progress));
      } catch (error) {
        return errorResult(`${name} failed: ${errorMessage(error)}`);
      }
    }
    const page = this.#pageTools.find((entry) => entry.exposedName === name);
    if (!page || this.#focusedTabId === null) {
      return errorResult(
        `Unknown tool "${name}". ${this.#focusedTabId === null ? 'No tab is focused: call focus_tab or open_tab first, then list the tools again.' : 'The focused tab does not offer it (its tools may have changed): list the tools again.'}`,
      );
    }
    return this.#callPageTool(this.#focusedTabId, page.tool, args);
  }

  /** The focused tab's tools as an agent sees them (for list_page_tools and the open/focus replies). */
  #focusedPageTools(): ListedTool[] {
    const core = new Set(this.#coreTools.keys());
    return this.listTools().filter((tool) => !core.has(tool.name));
  }

  async #callPageToolByName(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (this.#focusedTabId === null) return errorResult('No tab is focused: call focus_tab or open_tab first.');
    const page = this.#pageTools.find((entry) => entry.exposedName === name);
    if (!page) {
      const names = this.#pageTools.map((entry) => entry.exposedName).join(', ') || 'none';
      return errorResult(`The focused tab has no tool "${name}". Its tools: ${names}. Call list_page_tools.`);
    }
    return this.#callPageTool(this.#focusedTabId, page.tool, args);
  }

  async #callPageTool(tabId: number, tool: Tool, args: Record<string, unknown>): Promise<CallToolResult> {
    const problems = checkPageArguments(tool.inputSchema, args);
    if (problems.length > 0) {
      return errorResult(
        `Invalid arguments for ${tool.name}: ${problems.join('; ')}. Expected input schema: ${JSON.stringify(tool.inputSchema)}`,
      );
    }
    try {
      return await this.#connection.callTool(tabId, tool.name, args, this.#options.pageToolTimeoutMs);
    } catch (error) {
      const hint =
        error instanceof ProtocolError && error.code === ErrorCode.BrowserNotConnected
          ? 'The link to the browser dropped (its extension worker stopped or the browser closed); tabmcp reconnects by itself when the extension dials in again: call list_tabs in a moment, or connect_browser.'
          : errorMessage(error).includes('not a tool result')
            ? "Calling it again will not help: the site's tool is faulty. Read the page with get_page_content instead, if the tab offers it."
            : this.#tabs.has(tabId)
              ? 'The page may be busy or reloading; try again, or call list_tabs.'
              : 'The tab is gone; call list_tabs and focus_tab to pick another.';
      return errorResult(`The page tool "${tool.name}" in tab ${tabId} failed: ${errorMessage(error)}. ${hint}`);
    }
  }

  #availableCoreNames(): string[] {
    const fallback = this.#options.fallbackTools ? ['list_page_tools', 'call_page_tool'] : [];
    return [...this.#stateCoreNames(), ...(this.state === 'TAB_FOCUSED' ? fallback : [])];
  }

  #stateCoreNames(): string[] {
    switch (this.state) {
      case 'DISCONNECTED':
        return ['connect_browser'];
      case 'CONNECTED_NO_TABS':
        return ['list_tabs', 'open_tab'];
      case 'CONNECTED_NO_FOCUS':
        return ['list_tabs', 'open_tab', 'focus_tab'];
      case 'TAB_FOCUSED':
        return ['list_tabs', 'open_tab', 'focus_tab', 'close_tab'];
    }
  }

  #unavailableReason(name: string): string {
    switch (this.state) {
      case 'DISCONNECTED':
        return `${name} needs a connected browser: call connect_browser first.`;
      case 'CONNECTED_NO_TABS':
        return name === 'connect_browser'
          ? 'The browser is already connected. Call list_tabs or open_tab.'
          : `${name} needs an open tab: call open_tab first.`;
      case 'CONNECTED_NO_FOCUS':
        return name === 'connect_browser'
          ? 'The browser is already connected. Call list_tabs, open_tab or focus_tab.'
          : `${name} needs a focused tab: call focus_tab first.`;
      default:
        return 'The browser is already connected.';
    }
  }

  #listCore(name: string): ListedTool {
    const tool = this.#coreTools.get(name);
    if (!tool) throw new Error(`no core tool ${name}`);
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    };
  }

  #defineCoreTools(): ToolDefinition[] {
    const launchByDefault = this.#options.launchByDefault ?? false;
    const connectInput = z.object({ launch: z.boolean().default(launchByDefault) }).strict();
    const openInput = z.object({ url: z.string().min(1), focus: z.boolean().default(true) }).strict();
    const focusInput = z.object({ tabId: z.number().int().nonnegative() }).strict();
    const closeInput = z.object({ tabId: z.number().int().nonnegative().optional() }).strict();
    const tools: ToolDefinition[] = [
      {
        name: 'connect_browser',
        title: 'Connect to the browser',
        description:
          'Connect to the browser that runs the tabmcp extension. With launch=true, start a fresh Chromium with the extension if none is connected. Afterwards list_tabs and open_tab appear.',
        input: connectInput,
        inputSchema: {
          type: 'object',
          properties: {
            launch: {
              type: 'boolean',
              description: 'Launch a new browser instance if none is connected',
              default: launchByDefault,
            },
          },
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, openWorldHint: true },
        run: (args, progress) => this.#connectBrowser((args as z.infer<typeof connectInput>).launch, progress),
      },
      {
        name: 'list_tabs',
        title: 'List tabs',
        description: 'List the open tabs with their tool counts; focused marks the tab whose tools are listed.',
        input: z.object({}).strict(),
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true, idempotentHint: true },
        run: async () => jsonResult(this.#listTabs()),
      },
      {
        name: 'open_tab',
        title: 'Open a tab',
        description: "Open a URL in a new tab; focused (the default), its page's tools join the tool list.",
        input: openInput,
        inputSchema: {
          type: 'object',
          properties: {
            url: { type: 'string', description: 'URL to open (http, https, file, about or data)' },
            focus: { type: 'boolean', default: true },
          },
          required: ['url'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, openWorldHint: true },
        run: (args, progress) => {
          const { url, focus } = args as z.infer<typeof openInput>;
          return this.#openTab(url, focus, progress);
        },
      },
      {
        name: 'focus_tab',
        title: 'Focus a tab',
        description: "Focus a tab by id from list_tabs: its page's tools replace the previous tab's.",
        input: focusInput,
        inputSchema: {
          type: 'object',
          properties: { tabId: { type: 'number' } },
          required: ['tabId'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, idempotentHint: true },
        run: (args) => this.#focusTab((args as z.infer<typeof focusInput>).tabId),
      },
      {
        name: 'close_tab',
        title: 'Close a tab',
        description: 'Close a tab by id, or the focused tab without one (its tools go with it).',
        input: closeInput,
        inputSchema: {
          type: 'object',
          properties: { tabId: { type: 'number' } },
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, destructiveHint: true },
        run: (args) => this.#closeTab((args as z.infer<typeof closeInput>).tabId),
      },
    ];
    if (!this.#options.fallbackTools) return tools;
    const callInput = z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) });
    tools.push(
      {
        name: 'list_page_tools',
        title: 'List the focused page tools',
        description:
          "List the focused tab's own tools with their input schemas, for clients that do not refresh their tool list. Call them with call_page_tool.",
        input: z.object({}).strict(),
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true, idempotentHint: true },
        run: async () => jsonResult({ focusedTabId: this.#focusedTabId, tools: this.#focusedPageTools() }),
      },
      {
        name: 'call_page_tool',
        title: 'Call a tool of the focused page',
        description: 'Call one of the tools list_page_tools shows, by name, with its arguments.',
        input: callInput,
        inputSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Tool name as list_page_tools shows it' },
            arguments: { type: 'object', description: "The tool's arguments", additionalProperties: true },
          },
          required: ['name'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: false, openWorldHint: true },
        run: (args) => {
          const { name, arguments: toolArgs } = args as z.infer<typeof callInput>;
          return this.#callPageToolByName(name, toolArgs);
        },
      },
    );
    return tools;
  }

  async #connectBrowser(launch: boolean, progress: Progress): Promise<CallToolResult> {
    const problem = this.#connection.linkProblem?.();
    // Nothing to wait for and nothing to launch: no browser can reach this process.
    if (problem && !this.#connection.isUp) return jsonResult({ connected: false, error: problem }, true);
    if (!this.#connection.isUp) {
      if (launch) {
        if (!this.#launcher) return errorResult('Launching is disabled in this tabmcp server.');
        progress('Launching Chromium with the tabmcp extension');
        try {
          await this.#launcher.launch({ linkDroppedAt: this.#linkDroppedAt });
        } catch (error) {
          return jsonResult({ connected: false, error: 'No browser found', instructions: errorMessage(error) }, true);
        }
        progress('Waiting for the extension to connect');
        if (!(await this.#connection.waitUntilUp(this.#options.launchTimeoutMs))) {
          return errorResult(
            `Chromium started but the tabmcp extension did not connect within ${this.#options.launchTimeoutMs} ms. See docs/troubleshooting.md.`,
          );
        }
      } else if (!(await this.#connection.waitUntilUp(this.#options.connectGraceMs))) {
        return jsonResult({ connected: false, error: 'No browser found', instructions: NO_BROWSER_INSTRUCTIONS }, true);
      }
    }
    this.#wantConnected = true;
    await this.#establish();
    return jsonResult({ connected: true, browser: this.#browser, tabCount: this.#tabs.size });
  }

  async #establish(): Promise<void> {
    const { browser, tabs } = await this.#connection.connect();
    this.#browser = browser;
    const previousFocus = this.#focusedTabId;
    this.#tabs.clear();
    for (const tab of tabs) this.#tabs.set(tab.id, toTabState(tab));
    this.#connected = true;
    // After a reconnect (worker restart) keep the agent's focus if its tab survived.
    this.#setFocus(previousFocus !== null && this.#tabs.has(previousFocus) ? previousFocus : null);
  }

  #listTabs() {
    return {
      tabs: [...this.#tabs.values()].map((tab) => ({
        id: tab.id,
        title: tab.title,
        url: tab.url,
        focused: tab.id === this.#focusedTabId,
        toolCount: tab.tools.length,
        ...siteNote(tab),
      })),
      focusedTabId: this.#focusedTabId,
    };
  }

  async #openTab(url: string, focus: boolean, progress: Progress): Promise<CallToolResult> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return errorResult(`Invalid URL "${url}": give an absolute URL such as https://example.com`);
    }
    if (!ALLOWED_URL_PROTOCOLS.has(parsed.protocol)) {
      return errorResult(`Refusing to open "${url}": only ${[...ALLOWED_URL_PROTOCOLS].join(' ')} URLs can be opened`);
    }
    progress(`Opening ${parsed.href}`);
    const started = Date.now();
    // Pages can take seconds to load: tell the client the call is alive.
    const ticker = setInterval(
      () => progress(`Waiting for ${parsed.href} to load (${Math.round((Date.now() - started) / 1000)} s)`),
      1_000,
    );
    let opened: Awaited<ReturnType<BrowserConnection['openTab']>>;
    try {
      opened = await this.#connection.openTab(parsed.href, focus, this.#options.openTabToolWaitMs);
    } finally {
      clearInterval(ticker);
    }
    const existing = this.#tabs.get(opened.tab.id);
    const tab = toTabState(opened.tab);
    // Tool updates may have raced ahead of this reply; the newest non-empty list wins.
    if (existing && existing.tools.length > 0 && tab.tools.length === 0) tab.tools = existing.tools;
    this.#tabs.set(tab.id, tab);
    if (focus) this.#setFocus(tab.id);
    else this.#announcer.schedule();
    const held = siteNote(this.#tabs.get(tab.id) ?? tab);
    return jsonResult({
      tab: { id: tab.id, title: tab.title, url: tab.url },
      focused: focus,
      // The names the agent will call them by, whether or not the tab is focused.
      toolsAvailable: focus
        ? this.#pageTools.map((entry) => entry.exposedName)
        : exposePageTools(tab.tools, new Set(this.#coreTools.keys())).map((entry) => entry.exposedName),
      ...(held.note
        ? held
        : opened.toolsReady
          ? {}
          : {
              note: 'The page published no tools yet; they appear with a tools/list_changed notification if it does.',
            }),
    });
  }

  async #focusTab(tabId: number): Promise<CallToolResult> {
    if (!this.#tabs.has(tabId)) {
      return errorResult(
        `No tab with id ${tabId}. Open tabs: ${[...this.#tabs.keys()].join(', ') || 'none'}. Call list_tabs.`,
      );
    }
    let tab: TabInfo;
    try {
      ({ tab } = await this.#connection.focusTab(tabId));
    } catch (error) {
      // The browser no longer has it (closed while the event was on its way): forget it too.
      if (!(error instanceof ProtocolError && error.code === ErrorCode.TabNotFound)) throw error;
      this.#removeTab(tabId);
      return errorResult(
        `Tab ${tabId} is gone from the browser. Open tabs: ${[...this.#tabs.keys()].join(', ') || 'none'}. Call list_tabs.`,
      );
    }
    const state = this.#tabs.get(tabId);
    if (state) Object.assign(state, { title: tab.title, url: tab.url });
    this.#setFocus(tabId);
    return jsonResult({
      success: true,
      tab: { id: tabId, title: tab.title, url: tab.url },
      toolsAvailable: this.#pageTools.map((entry) => entry.exposedName),
      ...(state ? siteNote(state) : {}),
    });
  }

  async #closeTab(requested: number | undefined): Promise<CallToolResult> {
    const tabId = requested ?? this.#focusedTabId;
    if (tabId === null || !this.#tabs.has(tabId)) {
      return errorResult(`No tab with id ${tabId}. Call list_tabs to see the open tabs.`);
    }
    try {
      await this.#connection.closeTab(tabId);
    } catch (error) {
      if (!(error instanceof ProtocolError && error.code === ErrorCode.TabNotFound)) throw error;
    }
    this.#removeTab(tabId);
    return jsonResult({ closed: true, tabId });
  }

  #removeTab(tabId: number): void {
    this.#cancelPendingEmpty(tabId);
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
    this.#pageTools = tab ? exposePageTools(tab.tools, new Set(this.#coreTools.keys())) : [];
    this.#announcer.schedule();
  }

  #onEvent(event: BrowserEvent): void {
    if (!this.#connected) return;
    switch (event.type) {
      case 'tabCreated':
      case 'tabUpdated': {
        const existing = this.#tabs.get(event.tab.id);
        this.#tabs.set(event.tab.id, { ...toTabState(event.tab), tools: existing?.tools ?? [] });
        this.#announcer.schedule();
        return;
      }
      case 'tabClosed':
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
        if (tab) tab.tools = event.tools;
        if (event.type === 'tabFocused' && this.#options.followBrowserFocus && tab) this.#setFocus(event.tabId);
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

  /** Applies an emptied tool list only if the tab's next page publishes nothing within the grace. */
  #holdEmptyTools(tabId: number): void {
    if (this.#pendingEmpty.has(tabId)) return;
    const timer = setTimeout(() => {
      this.#pendingEmpty.delete(tabId);
      const tab = this.#tabs.get(tabId);
      if (!tab) return;
      tab.tools = [];
      if (tabId === this.#focusedTabId) this.#refreshPageTools();
    }, this.#options.navigationGraceMs);
    timer.unref?.();
    this.#pendingEmpty.set(tabId, timer);
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

function toTabState(tab: TabInfo): TabState {
  return {
    id: tab.id,
    title: tab.title,
    url: tab.url,
    tools: tab.tools ?? [],
    ...(tab.siteAccess ? { siteAccess: tab.siteAccess } : {}),
  };
}

/** Why a tab's tools are held back, and the step that releases them (list_tabs, open_tab, focus_tab). */
function siteNote(tab: { siteAccess?: string }): { note?: string } {
  if (!tab.siteAccess || tab.siteAccess === 'allowed') return {};
  return {
    note: `Its tools are held back: the site is ${tab.siteAccess === 'blocked' ? 'blocked' : 'not allowed yet'}. The user allows it in the tabmcp popup (toolbar icon); the tools then appear with a tools/list_changed notification.`,
  };
}
