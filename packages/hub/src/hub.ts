import {
  type AuditEntry,
  type BrowserCapabilities,
  CallToolResult,
  type ContentToBackground,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ErrorCode,
  errorMessage,
  type Logger,
  type PageBrowserCapabilities,
  type PageMethod,
  PendingRequests,
  ProtocolError,
  type SiteAccess,
  type Tool,
  type ToolSource,
  validate,
} from '@tabmcp/protocol';
import { AuditLog } from './audit-log';
import { readSites, readSnapshot, trimCache } from './cache-limits';
import { presentHubTool } from './descriptions';
import { domainOf, originOfDomain } from './domain';
import { bestTabForDomain } from './routing';
import { type SiteDecision, SitePolicy, siteOf } from './site-policy';
import type { HubSnapshot, HubStore, StoredCachedTool, StoredTab } from './store';
import type { TabTransport } from './tab-transport';
import { checkTools, isCached } from './tool-check';
import { hubToolName } from './tool-namer';

export interface TabTools {
  tabId: number;
  url: string | undefined;
  domain: string | undefined;
  /** The N of `tab<N>` in hub names: small, per domain, stable while the tab lives. */
  ordinal: number;
  source: ToolSource | undefined;
  tools: Tool[];
  updatedAt: number;
  /** When the hub last knew the tab alive (registered, or connected when the state was saved). */
  lastSeen: number;
  /** The `browser` capabilities its page declared at initialize (mcp-b.md "Capability Negotiation"). */
  capabilities: PageBrowserCapabilities | undefined;
  /** False for a tab restored from storage whose content script has not registered again yet. */
  connected: boolean;
}

/** Opens a tab for a cached tool whose tabs are all closed. */
export interface TabOpener {
  open(url: string): Promise<number>;
}

export interface HubOptions {
  transport: TabTransport;
  store?: HubStore;
  opener?: TabOpener;
  /** Per request to a tab (mcp-b.md: 10 s). */
  requestTimeoutMs?: number;
  /** How long a reopened tab may take to register its tools (10 s). */
  openWaitMs?: number;
  /** A tab that is still loading (no content script yet) is retried this often (3) ... */
  retries?: number;
  /** ... this far apart (1 s), or sooner when it registers. */
  retryDelayMs?: number;
  /** Stored tabs last seen alive longer ago than this are dropped when the worker starts (1 h). */
  staleTabMs?: number;
  /** How long tab messages wait for a slow restore before they are handled without it (5 s). */
  restoreWaitMs?: number;
  /** A restored tab whose content script has not registered again after this long is dropped (15 s). */
  restoreGraceMs?: number;
  now?: () => number;
  log?: Logger;
}

interface Route {
  domain: string;
  toolName: string;
  /** Undefined for a cached tool with no open tab. */
  tabId: number | undefined;
}

type Listener<A extends unknown[]> = (...args: A) => void;

const HOUR_MS = 3_600_000;

/**
 * The hub of mcp-b.md: each tab's tools by domain and tab, cached tools that outlive their tab,
 * hub names and descriptions, routing to the best tab, and the site policy that decides which
 * tools reach agents. It never touches `chrome.*`: transport, store and tab opener are injected.
 */
export class Hub {
  readonly #transport: TabTransport;
  readonly #store: HubStore | undefined;
  readonly #opener: TabOpener | undefined;
  readonly #timeoutMs: number;
  readonly #openWaitMs: number;
  readonly #retries: number;
  readonly #retryDelayMs: number;
  readonly #staleTabMs: number;
  readonly #restoreGraceMs: number;
  readonly #restoreWaitMs: number;
  readonly #now: () => number;
  readonly #log: Logger;
  readonly #tabs = new Map<number, TabTools>();
  readonly #cached = new Map<string, StoredCachedTool>();
  readonly #policy = new SitePolicy();
  readonly #audit = new AuditLog();
  readonly #pending = new PendingRequests<unknown>();
  readonly #registrationWaiters = new Map<number, Set<() => void>>();
  readonly #listeners = new Set<Listener<[number, Tool[]]>>();
  readonly #hubListeners = new Set<Listener<[Tool[]]>>();
  readonly #pageListeners = new Set<Listener<[number, string, Record<string, unknown> | undefined]>>();
  #activeTabId: number | undefined;
  #exposed: Tool[] = [];
  #routes = new Map<string, Route>();
  #exposedSignature = '';
  /** Tab messages that arrived while a restore was running, handled in order once it ends. */
  #held: Array<() => void> | undefined;
  #savedAt = Number.NEGATIVE_INFINITY;

  constructor(options: HubOptions) {
    this.#transport = options.transport;
    this.#store = options.store;
    this.#opener = options.opener;
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#openWaitMs = options.openWaitMs ?? 10_000;
    this.#retries = options.retries ?? 3;
    this.#retryDelayMs = options.retryDelayMs ?? 1_000;
    this.#staleTabMs = options.staleTabMs ?? HOUR_MS;
    this.#restoreGraceMs = options.restoreGraceMs ?? 15_000;
    this.#restoreWaitMs = options.restoreWaitMs ?? 5_000;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? (() => {});
    this.#exposedSignature = this.#signature([]);
    this.#transport.onmessage = (tabId, message, senderUrl) =>
      this.#afterRestore(() => this.#onMessage(tabId, message, senderUrl));
    this.#transport.ondisconnect = (tabId) => this.#afterRestore(() => this.#onDisconnect(tabId));
  }

  // ---- listeners ----

  /** A tab's visible tool list changed (to empty when it goes away or its site is not allowed). */
  onToolsChanged(listener: (tabId: number, tools: Tool[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The `all` view's list (hub names) changed. */
  onHubToolsChanged(listener: (tools: Tool[]) => void): () => void {
    this.#hubListeners.add(listener);
    return () => this.#hubListeners.delete(listener);
  }

  /** A page's resource and prompt notifications, relayed as they come (allowed sites only). */
  onPageNotification(
    listener: (tabId: number, method: string, params: Record<string, unknown> | undefined) => void,
  ): () => void {
    this.#pageListeners.add(listener);
    return () => this.#pageListeners.delete(listener);
  }

  // ---- queries ----

  /** The tools of a tab as agents may see them: none unless its site is allowed. */
  toolsOf(tabId: number): Tool[] {
    const tab = this.#tabs.get(tabId);
    return tab && this.#policy.access(tab.url) === 'allowed' ? tab.tools : [];
  }

  hasRegistered(tabId: number): boolean {
    return this.#tabs.has(tabId);
  }

  tabs(): TabTools[] {
    return [...this.#tabs.values()];
  }

  siteAccess(url: string | undefined): SiteAccess {
    return this.#policy.access(url);
  }

  sites(): Array<{ site: string; decision: SiteDecision }> {
    return this.#policy.entries();
  }

  /** Every allowed tab's tools under hub names, plus cached tools whose tabs are closed. */
  hubTools(): Tool[] {
    return this.#exposed;
  }

  get activeTabId(): number | undefined {
    return this.#activeTabId;
  }

  /**
   * mcp-b.md's aggregate: caching is supported when this hub can cache (it has a store and can open
   * tabs) and some allowed page supports it, by declaring `browser.cacheSupported` or by marking a
   * tool `cache`. Elicitation stays off whatever pages declare: the hub has no way to relay it.
   */
  capabilities(): BrowserCapabilities {
    const canCache = this.#store !== undefined && this.#opener !== undefined;
    const pageCaches = (tab: TabTools) =>
      this.#policy.access(tab.url) === 'allowed' &&
      (tab.capabilities?.cacheSupported === true || tab.tools.some((tool) => isCached(tool)));
    return {
      multiTabSupport: true,
      cacheSupported: canCache && (this.#cached.size > 0 || [...this.#tabs.values()].some(pageCaches)),
      elicitation: false,
    };
  }

  audit(kinds?: ReadonlyArray<AuditEntry['kind']>, limit?: number): AuditEntry[] {
    return this.#audit.recent(kinds, limit);
  }

  // ---- commands from the adapters ----

  /**
   * Rebuilds the state a stopped worker had: stored tabs still open (and fresh), cached tools, site
   * decisions. Call it as the worker starts: content scripts register again at once, and their
   * messages wait until it ends, so each tab finds its stored entry and keeps its number.
   */
  async restore(
    liveTabs:
      | ReadonlyArray<{ tabId: number; url: string | undefined }>
      | Promise<ReadonlyArray<{ tabId: number; url: string | undefined }>>,
  ): Promise<void> {
    // A second restore while one runs shares its queue rather than strand it.
    const held = this.#held ?? [];
    this.#held = held;
    const release = () => {
      if (this.#held !== held) return;
      this.#held = undefined;
      for (const handle of held) handle();
    };
    // A storage that never answers must not hold every tab's tools back for good.
    const timer = setTimeout(() => {
      this.#log('restore.slow', { held: held.length, waitedMs: this.#restoreWaitMs });
      release();
    }, this.#restoreWaitMs);
    try {
      await this.#restoreState(await liveTabs);
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  #afterRestore(handle: () => void): void {
    if (this.#held) this.#held.push(handle);
    else handle();
  }

  async #restoreState(liveTabs: ReadonlyArray<{ tabId: number; url: string | undefined }>): Promise<void> {
    const raw = await this.#store?.load();
    const ownSites = await this.#store?.loadSites?.();
    const snapshot = readSnapshot(raw, this.#now());
    // Decisions under their own key win; the snapshot's copy is for state saved before they had one.
    const sites = ownSites === undefined || ownSites === null ? snapshot.sites : readSites(ownSites).items;
    if (snapshot.dropped > 0) this.#log('restore.trimmed', { dropped: snapshot.dropped });
    for (const { site, decision } of sites) this.#policy.set(site, decision);
    for (const cached of snapshot.cached) this.#cached.set(cacheKey(cached.domain, cached.tool.name), cached);
    const live = new Map(liveTabs.map((tab) => [tab.tabId, tab.url]));
    const now = this.#now();
    let restored = 0;
    for (const stored of snapshot.tabs) {
      const liveUrl = live.get(stored.tabId);
      const lastSeen = stored.lastSeen ?? stored.updatedAt;
      // A content script that registered while a slow storage loaded is newer than the stored entry.
      if (this.#tabs.has(stored.tabId) || liveUrl === undefined || now - lastSeen > this.#staleTabMs) continue;
      if (domainOf(liveUrl) !== stored.domain) continue;
      const ordinal = this.#ordinalTaken(stored.domain, stored.ordinal, stored.tabId)
        ? this.#freeOrdinal(stored.domain)
        : stored.ordinal;
      this.#tabs.set(stored.tabId, {
        ...stored,
        ordinal,
        source: stored.source,
        lastSeen,
        capabilities: stored.capabilities,
        connected: false,
      });
      this.#emit(stored.tabId);
      restored += 1;
    }
    this.#log('restore', { tabs: restored, cached: this.#cached.size, sites: sites.length });
    this.#changed();
    if (restored > 0) setTimeout(() => this.#dropUnclaimed(), this.#restoreGraceMs);
  }

  /** A restored tab whose page never came back (its content script gave up) must not keep offering tools. */
  #dropUnclaimed(): void {
    for (const tab of [...this.#tabs.values()]) {
      if (!tab.connected) this.removeTab(tab.tabId, `Tab ${tab.tabId} did not reconnect after the worker restarted`);
    }
  }

  /**
   * The worker is alive, and so are its connected tabs. Saved now and then (a quarter of the stale
   * age), so a restore tells a quiet open tab from one the hub has not seen for an hour.
   */
  keepAlive(): void {
    if (this.#now() - this.#savedAt >= this.#staleTabMs / 4) this.#save();
  }

  setActiveTab(tabId: number | undefined): void {
    if (this.#activeTabId === tabId) return;
    this.#activeTabId = tabId;
    this.#rebuild();
  }

  setSiteDecision(site: string, decision: SiteDecision | undefined): void {
    if (!this.#policy.set(site, decision)) return;
    this.#audit.add({ at: this.#now(), kind: 'site', domain: site, detail: decision ?? 'forget' });
    this.#log('site', { site, decision: decision ?? 'forget' });
    for (const tab of this.#tabs.values()) {
      if (siteOf(tab.url) !== site) continue;
      this.#cacheTools(tab);
      this.#emit(tab.tabId);
    }
    if (decision !== 'allow') this.#forgetCached(site);
    this.#store?.saveSites?.(this.#policy.entries());
    this.#changed();
  }

  /** The tab went away (closed, navigated, crashed): keep its cached tools, forget the rest, answer its calls. */
  removeTab(tabId: number, reason: string): void {
    this.#pending.rejectGroup(tabId, () => new ProtocolError(ErrorCode.TabNotFound, reason, { delivered: true }));
    if (!this.#tabs.delete(tabId)) return;
    this.#emit(tabId, []);
    this.#changed();
  }

  // ---- calls ----

  /** The focused view: a tool of one tab, by the page's own name. */
  async callTool(tabId: number, toolName: string, args: Record<string, unknown>, timeoutMs = this.#timeoutMs) {
    const tab = this.#usableTab(tabId);
    if (!tab.tools.some((tool) => tool.name === toolName)) {
      const names = tab.tools.map((tool) => tool.name).join(', ') || 'none';
      throw new ProtocolError(ErrorCode.ToolNotFound, `Tab ${tabId} has no tool "${toolName}". Its tools: ${names}`);
    }
    return this.#callAudited(tab, toolName, args, timeoutMs);
  }

  /** The `all` view: a tool by its hub name, routed to the best tab of its domain (or a reopened one). */
  async callHubTool(name: string, args: Record<string, unknown>, timeoutMs = this.#timeoutMs) {
    const route = this.#routes.get(name);
    if (!route) {
      throw new ProtocolError(
        ErrorCode.ToolNotFound,
        `No tool "${name}": the tab that offered it may have closed or changed its tools. List the tools again.`,
      );
    }
    const tried = new Set<number>();
    const pinned = route.tabId === undefined ? undefined : this.#tabs.get(route.tabId);
    let tab = pinned && hasTool(pinned, route.toolName) ? pinned : this.#bestTab(route, tried);
    tab ??= await this.#reopen(route);
    for (;;) {
      try {
        this.#usableTab(tab.tabId);
        return await this.#callAudited(tab, route.toolName, args, timeoutMs);
      } catch (error) {
        if (!(error instanceof ProtocolError) || error.code !== ErrorCode.TabNotFound) throw error;
        tried.add(tab.tabId);
        const delivered = (error.data as { delivered?: boolean } | undefined)?.delivered === true;
        const tool = tab.tools.find((candidate) => candidate.name === route.toolName);
        if (delivered && !isReplayable(tool)) {
          throw new ProtocolError(
            ErrorCode.TabNotFound,
            `${error.message}. The call may have run in part; "${route.toolName}" is not marked read-only or idempotent, so it was not repeated in another tab. Check the page state, then call it again if needed.`,
          );
        }
        const next = this.#bestTab(route, tried);
        if (!next) {
          throw new ProtocolError(
            ErrorCode.TabNotFound,
            `${error.message}. No other tab of ${route.domain} offers "${route.toolName}": open the page again (open_tab) and list the tools.`,
          );
        }
        this.#log('call.rerouted', { from: tab.tabId, to: next.tabId, tool: route.toolName });
        tab = next;
      }
    }
  }

  /** Relays a resources/prompts request to a tab's page; the caller checks the result's shape. */
  async pageRequest(
    tabId: number,
    method: PageMethod,
    params: Record<string, unknown> | undefined,
    timeoutMs = this.#timeoutMs,
  ) {
    this.#usableTab(tabId);
    return this.#deliver(
      tabId,
      (id) => ({ jsonrpc: '2.0', id, method: 'browser/pageRequest', params: { method, params } }),
      `${method} in tab ${tabId}`,
      timeoutMs,
    );
  }

  #usableTab(tabId: number): TabTools {
    const tab = this.#tabs.get(tabId);
    if (!tab) {
      throw new ProtocolError(
        ErrorCode.TabNotFound,
        `Tab ${tabId} has no connected page; it may have closed or be loading`,
      );
    }
    const access = this.#policy.access(tab.url);
    if (access !== 'allowed') {
      throw new ProtocolError(
        ErrorCode.SiteNotAllowed,
        `The site ${siteOf(tab.url) ?? tab.url} is ${access === 'blocked' ? 'blocked' : 'not allowed yet'}: the user must allow it in the tabmcp popup before its tools can be used.`,
      );
    }
    return tab;
  }

  async #callAudited(tab: TabTools, toolName: string, args: Record<string, unknown>, timeoutMs: number) {
    const started = this.#now();
    const entry = { kind: 'call' as const, tabId: tab.tabId, domain: tab.domain, tool: toolName };
    this.#log('call', { tabId: tab.tabId, domain: tab.domain, toolName });
    try {
      const payload = await this.#deliver(
        tab.tabId,
        (id) => ({ jsonrpc: '2.0', id, method: 'browser/executeTool', params: { toolName, args } }),
        `Tool "${toolName}" in tab ${tab.tabId}`,
        timeoutMs,
      );
      const checked = validate(CallToolResult, payload, `result of ${toolName}`);
      if (!checked.ok) throw checked.error;
      this.#audit.add({
        ...entry,
        at: this.#now(),
        outcome: checked.value.isError ? 'error' : 'ok',
        ms: this.#now() - started,
      });
      return checked.value;
    } catch (error) {
      this.#audit.add({
        ...entry,
        at: this.#now(),
        outcome: 'error',
        ms: this.#now() - started,
        detail: errorMessage(error).slice(0, 1024),
      });
      throw error;
    }
  }

  /**
   * Sends one request to a tab and waits for its answer. A tab whose content script is not
   * connected yet (loading, or restored after a worker restart) is retried a few times.
   */
  async #deliver(
    tabId: number,
    build: (id: string) => Parameters<TabTransport['send']>[1],
    what: string,
    timeoutMs: number,
  ): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const tab = this.#tabs.get(tabId);
      if (!tab) throw new ProtocolError(ErrorCode.TabNotFound, `Tab ${tabId} closed before ${what} could run`);
      if (tab.connected) {
        const id = this.#pending.nextId('call-');
        const answer = this.#pending.wait(id, tabId, timeoutMs, () => what);
        try {
          this.#transport.send(tabId, build(id));
          return await answer;
        } catch (error) {
          if (!this.#pending.reject(id, toError(error)) || !isUndelivered(error)) throw error;
          answer.catch(() => {});
          tab.connected = false;
        }
      }
      if (attempt >= this.#retries) {
        throw new ProtocolError(
          ErrorCode.TabNotFound,
          `Tab ${tabId} has no connected page after ${this.#retries} retries (it may still be loading or has crashed). Try again, or call list_tabs.`,
        );
      }
      await this.#waitForRegistration(tabId, this.#retryDelayMs);
    }
  }

  #bestTab(route: Route, exclude: ReadonlySet<number>): TabTools | undefined {
    const candidates = [...this.#tabs.values()].filter(
      (tab) => tab.domain === route.domain && this.#policy.access(tab.url) === 'allowed',
    );
    return bestTabForDomain(
      candidates.map((tab) => ({
        tab,
        tabId: tab.tabId,
        domain: route.domain,
        updatedAt: tab.updatedAt,
        hasTool: (name: string) => hasTool(tab, name),
      })),
      route.domain,
      route.toolName,
      this.#activeTabId,
      exclude,
    )?.tab;
  }

  /** mcp-b.md: no tab has the tool any more, so open its page (the cached URL, else https://<domain>). */
  async #reopen(route: Route): Promise<TabTools> {
    const cached = this.#cached.get(cacheKey(route.domain, route.toolName));
    const url = cached?.url ?? `https://${route.domain}`;
    if (!this.#opener) {
      throw new ProtocolError(ErrorCode.TabNotFound, `No open tab of ${route.domain} offers "${route.toolName}".`);
    }
    this.#log('call.reopen', { url, tool: route.toolName });
    const tabId = await this.#opener.open(url);
    // A page that redirected to another domain is not the cached tool's page.
    const registered = await this.#waitForRegistration(
      tabId,
      this.#openWaitMs,
      (tab) => tab.domain === route.domain && hasTool(tab, route.toolName),
    );
    const tab = this.#tabs.get(tabId);
    if (!registered || !tab) {
      throw new ProtocolError(
        ErrorCode.TabNotFound,
        `Opened ${url} in tab ${tabId} for "${route.toolName}", but its page did not offer that tool within ${this.#openWaitMs} ms. It may need a sign-in; look at the tab, then try again.`,
      );
    }
    return tab;
  }

  #waitForRegistration(tabId: number, timeoutMs: number, accept: (tab: TabTools) => boolean = () => true) {
    const ready = () => {
      const tab = this.#tabs.get(tabId);
      return tab?.connected === true && accept(tab);
    };
    if (ready()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const set = this.#registrationWaiters.get(tabId) ?? new Set<() => void>();
      this.#registrationWaiters.set(tabId, set);
      const done = (value: boolean) => {
        clearTimeout(timer);
        set.delete(check);
        if (set.size === 0) this.#registrationWaiters.delete(tabId);
        resolve(value);
      };
      const check = () => {
        if (ready()) done(true);
      };
      const timer = setTimeout(() => done(ready()), timeoutMs);
      set.add(check);
    });
  }

  // ---- messages from tabs ----

  #onMessage(tabId: number, message: ContentToBackground, senderUrl: string | undefined): void {
    if ('method' in message && message.method === 'browser/pageNotification') {
      const tab = this.#tabs.get(tabId);
      if (!tab || this.#policy.access(tab.url) !== 'allowed') return;
      for (const listener of this.#pageListeners) listener(tabId, message.params.method, message.params.params);
      return;
    }
    if ('method' in message) {
      this.#register(tabId, message, senderUrl);
      return;
    }
    const id = String(message.id);
    if (message.result.success) this.#pending.resolve(id, message.result.payload);
    else this.#pending.reject(id, new ProtocolError(ErrorCode.InternalError, message.result.payload));
  }

  #register(
    tabId: number,
    message: Extract<ContentToBackground, { method: 'browser/registerTools' | 'browser/updateTools' }>,
    senderUrl: string | undefined,
  ): void {
    const previous = this.#tabs.get(tabId);
    const isRegister = message.method === 'browser/registerTools';
    const url = senderUrl ?? (isRegister ? message.params.tabUrl : undefined) ?? previous?.url;
    const domain = domainOf(url);
    const kind = isRegister ? 'register' : 'update';
    const { accepted, rejected } = checkTools(message.params.tools);
    for (const problem of summarize(rejected)) {
      this.#audit.add({ at: this.#now(), kind: 'rejected', tabId, domain, tool: problem.name, detail: problem.reason });
      this.#log('tool.rejected', { tabId, domain, tool: problem.name, reason: problem.reason });
    }
    const sameDomain = previous !== undefined && previous.domain === domain;
    const ordinal = sameDomain ? previous.ordinal : this.#freeOrdinal(domain);
    // Idempotent: the same tools again (a re-registration after a worker restart) change nothing visible.
    const unchanged = sameDomain && previous.url === url && sameTools(previous.tools, accepted);
    const entry: TabTools = {
      tabId,
      url,
      domain,
      ordinal,
      source: message.params.source ?? previous?.source,
      tools: unchanged ? previous.tools : accepted,
      updatedAt: this.#now(),
      lastSeen: this.#now(),
      capabilities: (isRegister ? message.params.capabilities : undefined) ?? previous?.capabilities,
      connected: true,
    };
    this.#tabs.set(tabId, entry);
    if (message.params.extensions) {
      // mcp-b.md reserves `extensions` for fields no version defines yet: none is read, but none vanishes unseen.
      this.#log('extensions.ignored', { tabId, keys: Object.keys(message.params.extensions).slice(0, 10) });
    }
    if (entry.source !== 'dom') this.#forgetWithdrawn(entry, previous);
    this.#cacheTools(entry);
    this.#audit.add({ at: this.#now(), kind, tabId, domain, detail: `${accepted.length} tools` });
    this.#log(kind, { tabId, url, count: accepted.length, access: this.#policy.access(url) });
    if (!unchanged) this.#emit(tabId);
    this.#changed();
    for (const check of [...(this.#registrationWaiters.get(tabId) ?? [])]) check();
  }

  /** Only allowed sites get cached tools (they are persisted and outlive the tab), within CACHE_LIMITS. */
  #cacheTools(tab: TabTools): void {
    const { domain, url } = tab;
    if (!domain || !url || this.#policy.access(url) !== 'allowed') return;
    let added = false;
    for (const tool of tab.tools) {
      if (!isCached(tool)) continue;
      this.#cached.set(cacheKey(domain, tool.name), { domain, url, tool, savedAt: this.#now() });
      added = true;
    }
    if (!added) return;
    const kept = trimCache(this.#cached.values(), this.#now());
    if (kept.length === this.#cached.size) return;
    this.#log('cache.trimmed', { dropped: this.#cached.size - kept.length });
    this.#cached.clear();
    for (const cached of kept) this.#cached.set(cacheKey(cached.domain, cached.tool.name), cached);
  }

  /**
   * A page that lists its tools again without a cached one has withdrawn it, so its cached copy
   * (and its listing) goes too: the tab that offered it, or a new load of the page it was cached
   * from. Derived (`dom`) lists are left out: they say nothing about the page's own tools.
   */
  #forgetWithdrawn(tab: TabTools, previous: TabTools | undefined): void {
    const page = pageOf(tab.url);
    for (const [key, cached] of this.#cached) {
      if (cached.domain !== tab.domain || hasTool(tab, cached.tool.name)) continue;
      const offeredHere = previous?.domain === tab.domain && hasTool(previous, cached.tool.name);
      if (!offeredHere && (page === undefined || pageOf(cached.url) !== page)) continue;
      this.#cached.delete(key);
      this.#log('cache.withdrawn', { tabId: tab.tabId, domain: cached.domain, tool: cached.tool.name });
    }
  }

  #forgetCached(site: string): void {
    for (const [key, cached] of this.#cached) if (siteOf(cached.url) === site) this.#cached.delete(key);
  }

  #onDisconnect(tabId: number): void {
    this.removeTab(tabId, `The page in tab ${tabId} went away (closed, reloaded or navigated) before answering`);
  }

  // ---- derived state ----

  #freeOrdinal(domain: string | undefined): number {
    for (let n = 1; ; n++) if (!this.#ordinalTaken(domain, n)) return n;
  }

  #ordinalTaken(domain: string | undefined, ordinal: number, except?: number): boolean {
    for (const tab of this.#tabs.values()) {
      if (tab.domain === domain && tab.ordinal === ordinal && tab.tabId !== except) return true;
    }
    return false;
  }

  #emit(tabId: number, tools: Tool[] = this.toolsOf(tabId)): void {
    for (const listener of this.#listeners) listener(tabId, tools);
  }

  /** Something stored changed: recompute the hub view and persist. */
  #changed(): void {
    this.#rebuild();
    this.#save();
  }

  #save(): void {
    if (!this.#store) return;
    this.#savedAt = this.#now();
    this.#store.save(this.#snapshot());
  }

  #rebuild(): void {
    const taken = new Set<string>();
    const exposed: Tool[] = [];
    const routes = new Map<string, Route>();
    const live = [...this.#tabs.values()]
      .filter((tab) => tab.domain !== undefined && this.#policy.access(tab.url) === 'allowed')
      .sort((a, b) => (a.domain === b.domain ? a.ordinal - b.ordinal : (a.domain ?? '') < (b.domain ?? '') ? -1 : 1));
    for (const tab of live) {
      const domain = tab.domain as string;
      const origin = originOfDomain(domain, tab.url);
      for (const tool of tab.tools) {
        const name = hubToolName(domain, tab.ordinal, tool.name, taken);
        const active = tab.tabId === this.#activeTabId;
        exposed.push(presentHubTool(tool, name, { origin, ordinal: tab.ordinal, active }));
        routes.set(name, { domain, toolName: tool.name, tabId: tab.tabId });
      }
    }
    const cached = [...this.#cached.values()].sort((a, b) =>
      cacheKey(a.domain, a.tool.name).localeCompare(cacheKey(b.domain, b.tool.name)),
    );
    for (const entry of cached) {
      if (this.#policy.access(entry.url) !== 'allowed') continue;
      if (live.some((tab) => tab.domain === entry.domain && hasTool(tab, entry.tool.name))) continue;
      const name = hubToolName(entry.domain, undefined, entry.tool.name, taken);
      const origin = originOfDomain(entry.domain, entry.url);
      exposed.push(
        presentHubTool(entry.tool, name, { origin, ordinal: undefined, active: false, reopenUrl: entry.url }),
      );
      routes.set(name, { domain: entry.domain, toolName: entry.tool.name, tabId: undefined });
    }
    this.#routes = routes;
    const signature = this.#signature(exposed);
    if (signature === this.#exposedSignature) return;
    this.#exposedSignature = signature;
    this.#exposed = exposed;
    for (const listener of this.#hubListeners) listener(exposed);
  }

  /** Capabilities travel with the list, so a change of either is announced. */
  #signature(exposed: Tool[]): string {
    return JSON.stringify([exposed, this.capabilities()]);
  }

  #snapshot(): HubSnapshot {
    const tabs: StoredTab[] = [];
    for (const tab of this.#tabs.values()) {
      if (tab.domain === undefined || tab.url === undefined) continue;
      tabs.push({
        tabId: tab.tabId,
        url: tab.url,
        domain: tab.domain,
        ordinal: tab.ordinal,
        ...(tab.source ? { source: tab.source } : {}),
        tools: tab.tools,
        updatedAt: tab.updatedAt,
        // A connected tab is alive now; a restored one still waiting keeps what was stored.
        lastSeen: tab.connected ? this.#now() : tab.lastSeen,
        ...(tab.capabilities ? { capabilities: tab.capabilities } : {}),
      });
    }
    // The same limits as on load, so what is saved always loads whole.
    const cached = trimCache(this.#cached.values(), this.#now());
    return { version: 1, tabs, cached, sites: this.#policy.entries() };
  }
}

/** A page refusing thousands of tools gets a few reasons and a count, not thousands of log lines. */
function summarize(rejected: Array<{ name: string; reason: string }>): Array<{ name: string; reason: string }> {
  const shown = 10;
  if (rejected.length <= shown) return rejected;
  const rest = rejected.slice(shown);
  return [
    ...rejected.slice(0, shown),
    {
      name: `(${rest.length} more)`,
      reason: `${rejected.length} tools refused in all; the last: ${rest.at(-1)?.reason}`,
    },
  ];
}

/** A page as a cached tool remembers it: the same document whatever its query or fragment. */
function pageOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return undefined;
  }
}

function cacheKey(domain: string, toolName: string): string {
  return `${domain}\u0000${toolName}`;
}

function hasTool(tab: TabTools, toolName: string): boolean {
  return tab.tools.some((tool) => tool.name === toolName);
}

/** Repeating a call in another tab is safe only for tools that say so. */
function isReplayable(tool: Tool | undefined): boolean {
  return tool?.annotations?.readOnlyHint === true || tool?.annotations?.idempotentHint === true;
}

function sameTools(a: Tool[], b: Tool[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}

/** The transport throws synchronously when a tab has no connected content script: nothing was delivered. */
function isUndelivered(error: unknown): boolean {
  return !(error instanceof ProtocolError);
}
