import type {
  AuditEntry,
  BrowserCapabilities,
  ContentToBackground,
  Logger,
  PersonWait,
  SiteAccess,
  TabRequestMethod,
  Tool,
} from '@tabmcp/protocol';
import { AuditLog } from './audit-log';
import { CallRouter } from './call-router';
import { TabDelivery } from './delivery';
import { type HubOptions, type HubSettings, hubSettings } from './hub-options';
import { type LiveTabs, RestoreGate, restoreInto } from './restore';
import { type SiteDecision, siteOf } from './site-policy';
import type { HubStore } from './store';
import { TabRegistry, type ToolListMessage } from './tab-registry';
import type { TabTools } from './tab-tools';
import { buildView, type HubView, viewSignature } from './view';

type Listener<A extends unknown[]> = (...args: A) => void;

/**
 * The hub of docs/requirements.md#hub, as a coordinator: tab messages go to the registry (what the hub knows) and
 * the delivery (answers to calls), agents' calls to the call router, and every change of state
 * rebuilds the view (`buildView`), announces it when it differs, and saves. It never touches
 * `chrome.*`: transport, store and tab opener are injected.
 */
export class Hub {
  readonly #settings: HubSettings;
  readonly #store: HubStore | undefined;
  readonly #canCache: boolean;
  readonly #now: () => number;
  readonly #log: Logger;
  readonly #registry: TabRegistry;
  readonly #delivery: TabDelivery;
  readonly #calls: CallRouter;
  readonly #gate: RestoreGate;
  readonly #audit = new AuditLog();
  readonly #listeners = new Set<Listener<[number, Tool[]]>>();
  readonly #hubListeners = new Set<Listener<[Tool[]]>>();
  readonly #pageListeners = new Set<Listener<[number, string, Record<string, unknown> | undefined]>>();
  #activeTabId: number | undefined;
  #view: HubView;
  #viewSignature: string;
  #savedAt = Number.NEGATIVE_INFINITY;
  #savedSignature = '';

  constructor(options: HubOptions) {
    const settings = hubSettings(options);
    this.#settings = settings;
    this.#store = options.store;
    this.#canCache = options.store !== undefined && options.opener !== undefined;
    this.#now = settings.now;
    this.#log = settings.log;
    this.#registry = new TabRegistry(this.#now, this.#log, (next) => this.#store?.saveTabNumbers?.(next));
    this.#delivery = new TabDelivery({
      transport: options.transport,
      tab: (tabId) => this.#registry.tabs.get(tabId),
      retries: settings.retries,
      retryDelayMs: settings.retryDelayMs,
    });
    this.#calls = new CallRouter({
      registry: this.#registry,
      delivery: this.#delivery,
      audit: this.#audit,
      opener: options.opener,
      gate: options.gate,
      openWaitMs: settings.openWaitMs,
      routes: () => this.#view.routes,
      activeTabId: () => this.#activeTabId,
      now: this.#now,
      log: this.#log,
    });
    this.#gate = new RestoreGate(settings.restoreWaitMs, this.#log);
    this.#view = buildView(this.#registry.viewState(undefined, this.#canCache));
    this.#viewSignature = viewSignature(this.#view);
    options.transport.onmessage = (tabId, message, senderUrl) =>
      this.#gate.run(() => this.#onMessage(tabId, message, senderUrl));
    options.transport.ondisconnect = (tabId) =>
      this.#gate.run(() =>
        this.removeTab(tabId, `The page in tab ${tabId} went away (closed, reloaded or navigated) before answering`),
      );
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
    const tab = this.#registry.tabs.get(tabId);
    return tab && this.#registry.policy.access(tab.url) === 'allowed' ? tab.tools : [];
  }

  hasRegistered(tabId: number): boolean {
    return this.#registry.tabs.has(tabId);
  }

  tabs(): TabTools[] {
    return [...this.#registry.tabs.values()];
  }

  siteAccess(url: string | undefined): SiteAccess {
    return this.#registry.policy.access(url);
  }

  sites(): Array<{ site: string; decision: SiteDecision }> {
    return this.#registry.policy.entries();
  }

  /** Every allowed tab's tools under hub names, plus cached tools whose tabs are closed. */
  hubTools(): Tool[] {
    return this.#view.tools;
  }

  get activeTabId(): number | undefined {
    return this.#activeTabId;
  }

  /** docs/requirements.md#hub's aggregate `browser` capabilities, as the view last built them (every change rebuilds it). */
  capabilities(): BrowserCapabilities {
    return this.#view.capabilities;
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
  async restore(liveTabs: LiveTabs | Promise<LiveTabs>): Promise<void> {
    // Tabs that register after a slow restore's wait are served by id, but named only once the
    // stored counters are read (issue 39 Q5); nothing is saved until then either.
    this.#registry.awaitTabNumbers();
    try {
      await this.#gate.during(async () => {
        const restored = await restoreInto(this.#registry, this.#store, await liveTabs, {
          staleTabMs: this.#settings.staleTabMs,
          now: this.#now,
          log: this.#log,
          onTab: (tabId) => this.#emit(tabId),
        });
        this.#numberWaitingTabs();
        if (restored > 0) setTimeout(() => this.#dropUnclaimed(), this.#settings.restoreGraceMs);
      });
    } finally {
      // A storage that failed outright has lost the counters for good: waiting longer would not bring them.
      this.#numberWaitingTabs();
    }
  }

  #numberWaitingTabs(): void {
    if (this.#registry.tabNumbersKnown) return;
    const numbered = this.#registry.numberWaitingTabs();
    if (numbered > 0) this.#log('restore.numbered', { tabs: numbered });
    this.#changed();
  }

  /** A restored tab whose page never came back (its content script gave up) must not keep offering tools. */
  #dropUnclaimed(): void {
    for (const tab of [...this.#registry.tabs.values()]) {
      if (!tab.connected) this.removeTab(tab.tabId, `Tab ${tab.tabId} did not reconnect after the worker restarted`);
    }
  }

  /**
   * The worker is alive, and so are its connected tabs. Saved now and then (a quarter of the stale
   * age), so a restore tells a quiet open tab from one the hub has not seen for an hour.
   */
  keepAlive(): void {
    if (this.#now() - this.#savedAt >= this.#settings.staleTabMs / 4) this.#save(true);
  }

  setActiveTab(tabId: number | undefined): void {
    if (this.#activeTabId === tabId) return;
    this.#activeTabId = tabId;
    this.#rebuild();
  }

  setSiteDecision(site: string, decision: SiteDecision | undefined): void {
    const registry = this.#registry;
    if (!registry.policy.set(site, decision)) return;
    this.#audit.add({ at: this.#now(), kind: 'site', domain: site, detail: decision ?? 'forget' });
    this.#log('site', { site, decision: decision ?? 'forget' });
    for (const tab of registry.tabs.values()) {
      if (siteOf(tab.url) !== site) continue;
      registry.cacheTools(tab);
      this.#emit(tab.tabId);
    }
    if (decision !== 'allow') registry.forgetCached(site);
    this.#store?.saveSites?.(registry.policy.entries());
    this.#changed();
  }

  /** The tab went away (closed, navigated, crashed): keep its cached tools, forget the rest, answer its calls. */
  removeTab(tabId: number, reason: string): void {
    this.#delivery.failTab(tabId, reason);
    if (!this.#registry.tabs.delete(tabId)) return;
    this.#emit(tabId, []);
    this.#changed();
  }

  // ---- calls ----

  /** The focused view: a tool of one tab, by the page's own name. */
  callTool(
    tabId: number,
    toolName: string,
    args: Record<string, unknown>,
    timeoutMs = this.#settings.requestTimeoutMs,
  ) {
    return this.#calls.callTool(tabId, toolName, args, timeoutMs);
  }

  /** The `all` view: a tool by its hub name, routed to the best tab of its domain (or a reopened one). */
  /** `onWaiting`: the gate's word that the call waits for the person (CallGate). */
  callHubTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs = this.#settings.requestTimeoutMs,
    onWaiting?: (wait: PersonWait) => void,
  ) {
    return this.#calls.callHubTool(name, args, timeoutMs, onWaiting);
  }

  /** Relays a resources/prompts request to a tab's page; the caller checks the result's shape. */
  pageRequest(
    tabId: number,
    method: TabRequestMethod,
    params: Record<string, unknown> | undefined,
    timeoutMs = this.#settings.requestTimeoutMs,
  ) {
    return this.#calls.pageRequest(tabId, method, params, timeoutMs);
  }

  // ---- messages from tabs ----

  #onMessage(tabId: number, message: ContentToBackground, senderUrl: string | undefined): void {
    if ('method' in message && message.method === 'browser/pageNotification') {
      const tab = this.#registry.tabs.get(tabId);
      if (!tab || this.#registry.policy.access(tab.url) !== 'allowed') return;
      for (const listener of this.#pageListeners) listener(tabId, message.params.method, message.params.params);
      return;
    }
    if ('method' in message) this.#register(tabId, message, senderUrl);
    else this.#delivery.answer(message, tabId);
  }

  #register(tabId: number, message: ToolListMessage, senderUrl: string | undefined): void {
    const { entry, accepted, rejected, unchanged } = this.#registry.register(tabId, message, senderUrl);
    const { url, domain } = entry;
    for (const problem of rejected) {
      this.#audit.add({ at: this.#now(), kind: 'rejected', tabId, domain, tool: problem.name, detail: problem.reason });
      this.#log('tool.rejected', { tabId, domain, tool: problem.name, reason: problem.reason });
    }
    const kind = message.method === 'browser/registerTools' ? 'register' : 'update';
    this.#audit.add({ at: this.#now(), kind, tabId, domain, detail: `${accepted} tools` });
    this.#log(kind, { tabId, url, count: accepted, access: this.#registry.policy.access(url) });
    if (!unchanged) this.#emit(tabId);
    this.#changed();
    this.#delivery.registered(tabId);
  }

  // ---- derived state ----

  #emit(tabId: number, tools: Tool[] = this.toolsOf(tabId)): void {
    for (const listener of this.#listeners) listener(tabId, tools);
  }

  /** Something stored changed: recompute the hub view and persist. */
  #changed(): void {
    this.#rebuild();
    this.#save();
  }

  /**
   * Writes the snapshot when what it holds changed (issue 26: every change rewrote all of it, a page
   * re-registering the same tools included); times alone (`lastSeen`, `updatedAt`) do not count, but for keepAlive.
   */
  #save(refreshLastSeen = false): void {
    // Before the restore has read the stored state, a save would write over it with less.
    if (!this.#store || !this.#registry.tabNumbersKnown) return;
    const snapshot = this.#registry.snapshot();
    const signature = JSON.stringify({
      ...snapshot,
      tabs: snapshot.tabs.map(({ lastSeen: _seen, updatedAt: _updated, ...tab }) => tab),
    });
    if (!refreshLastSeen && signature === this.#savedSignature) return;
    this.#savedSignature = signature;
    this.#savedAt = this.#now();
    this.#store.save(snapshot);
  }

  /** The routes always follow the state; the list is announced only when agents would see a difference. */
  #rebuild(): void {
    const view = buildView(this.#registry.viewState(this.#activeTabId, this.#canCache));
    const signature = viewSignature(view);
    if (signature === this.#viewSignature) {
      this.#view = { ...this.#view, routes: view.routes };
      return;
    }
    this.#viewSignature = signature;
    this.#view = view;
    for (const listener of this.#hubListeners) listener(view.tools);
  }
}
