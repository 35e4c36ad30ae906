import {
  CallToolResult,
  ErrorCode,
  errorMessage,
  type Logger,
  mayHaveRun,
  type PersonWait,
  ProtocolError,
  type TabRequestMethod,
  type Tool,
  validate,
} from '@tabmcp/protocol';
import type { AuditLog } from './audit-log';
import type { TabDelivery } from './delivery';
import { bestTabForDomain } from './routing';
import { siteOf } from './site-policy';
import type { TabRegistry } from './tab-registry';
import { cacheKey, hasTool, type TabTools } from './tab-tools';
import type { Route } from './view';

/**
 * Wraps a call by hub name once its tab is known, as the focused view's calls are wrapped by the
 * caller: the extension's dialog gate (a tab with a dialog open answers at once that it has one), and
 * its confirmation gate, which says through `onWaiting` that the call waits for the person.
 */
export type CallGate = (
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  call: () => Promise<CallToolResult>,
  onWaiting: ((wait: PersonWait) => void) | undefined,
) => Promise<CallToolResult>;

/** Opens a tab for a cached tool whose tabs are all closed, and closes it again when its page did not offer the tool. */
export interface TabOpener {
  open(url: string): Promise<number>;
  close(tabId: number): Promise<void>;
}

export interface CallRouterOptions {
  registry: TabRegistry;
  delivery: TabDelivery;
  audit: AuditLog;
  opener: TabOpener | undefined;
  gate: CallGate | undefined;
  /** How long a reopened tab may take to register its tools. */
  openWaitMs: number;
  /** The routes of the view agents last saw, and the tab the user looks at. */
  routes(): ReadonlyMap<string, Route>;
  activeTabId(): number | undefined;
  now: () => number;
  log: Logger;
}

/**
 * Calls from agents to pages: a tab's tool in the focused view, a hub name routed to the best tab
 * of its domain (reopening a cached tool's page, re-routing a replayable call when its tab closes),
 * and resource or prompt requests; every tool call goes into the audit log.
 */
export class CallRouter {
  readonly #options: CallRouterOptions;

  constructor(options: CallRouterOptions) {
    this.#options = options;
  }

  async callTool(tabId: number, toolName: string, args: Record<string, unknown>, timeoutMs: number) {
    const tab = this.#usableTab(tabId);
    if (!hasTool(tab, toolName)) {
      const names = tab.tools.map((tool) => tool.name).join(', ') || 'none';
      throw new ProtocolError(ErrorCode.ToolNotFound, `Tab ${tabId} has no tool "${toolName}". Its tools: ${names}`);
    }
    return this.#callAudited(tab, toolName, args, timeoutMs);
  }

  async callHubTool(
    name: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    onWaiting?: (wait: PersonWait) => void,
  ) {
    const route = this.#options.routes().get(name);
    if (!route) {
      throw new ProtocolError(
        ErrorCode.ToolNotFound,
        `No tool "${name}": the tab that offered it may have closed or changed its tools. List the tools again.`,
      );
    }
    const tried = new Set<number>();
    const pinned = route.tabId === undefined ? undefined : this.#options.registry.tabs.get(route.tabId);
    let tab = pinned && hasTool(pinned, route.toolName) ? pinned : this.#bestTab(route, tried);
    tab ??= await this.#reopen(route);
    // docs/requirements.md#hub, a tab closed mid-call: "fall back to another tab or recreate". A cached tool's page
    // is recreated once; the call runs there again only if it never reached a page, or is read-only or idempotent.
    let recreated = false;
    for (;;) {
      try {
        this.#usableTab(tab.tabId);
        const target = tab;
        const call = () => this.#callAudited(target, route.toolName, args, timeoutMs);
        const { gate } = this.#options;
        return await (gate ? gate(target.tabId, route.toolName, args, call, onWaiting) : call());
      } catch (error) {
        if (!(error instanceof ProtocolError) || !REROUTABLE.has(error.code)) throw error;
        tried.add(tab.tabId);
        const tool = tab.tools.find((candidate) => candidate.name === route.toolName);
        if (error.code === ErrorCode.PageLostMidCall && !isReplayable(tool)) {
          const reopened = await this.#recreateAfterLoss(route, tried);
          throw new ProtocolError(
            ErrorCode.PageLostMidCall,
            `${error.message}. "${route.toolName}" is not marked read-only or idempotent, so it was not repeated in another tab. ${mayHaveRun(name)}${reopened}`,
          );
        }
        let next = this.#bestTab(route, tried);
        if (!next && !recreated && this.#isCached(route)) {
          recreated = true;
          next = await this.#reopen(route);
        }
        if (!next) {
          throw new ProtocolError(
            ErrorCode.TabNotFound,
            `${error.message}. No other tab of ${route.domain} offers "${route.toolName}": open the page again (open_tab) and list the tools.`,
          );
        }
        this.#options.log('call.rerouted', { from: tab.tabId, to: next.tabId, tool: route.toolName });
        tab = next;
      }
    }
  }

  async pageRequest(
    tabId: number,
    method: TabRequestMethod,
    params: Record<string, unknown> | undefined,
    timeoutMs: number,
  ) {
    this.#usableTab(tabId);
    return this.#options.delivery.deliver(
      tabId,
      (id) => ({ jsonrpc: '2.0', id, method: 'browser/pageRequest', params: { method, params } }),
      `${method} in tab ${tabId}`,
      timeoutMs,
    );
  }

  #usableTab(tabId: number): TabTools {
    const { registry } = this.#options;
    const tab = registry.tabs.get(tabId);
    if (!tab) {
      throw new ProtocolError(
        ErrorCode.TabNotFound,
        `Tab ${tabId} has no connected page; it may have closed or be loading`,
      );
    }
    const access = registry.policy.access(tab.url);
    if (access !== 'allowed') {
      throw new ProtocolError(
        ErrorCode.SiteNotAllowed,
        `The site ${siteOf(tab.url) ?? tab.url} is ${access === 'blocked' ? 'blocked' : 'not allowed yet'}: the user must allow it in the tabmcp popup before its tools can be used.`,
      );
    }
    return tab;
  }

  async #callAudited(tab: TabTools, toolName: string, args: Record<string, unknown>, timeoutMs: number) {
    const { audit, now, log } = this.#options;
    const started = now();
    const entry = { kind: 'call' as const, tabId: tab.tabId, domain: tab.domain, tool: toolName };
    log('call', { tabId: tab.tabId, domain: tab.domain, toolName });
    try {
      const payload = await this.#options.delivery.deliver(
        tab.tabId,
        (id) => ({ jsonrpc: '2.0', id, method: 'browser/executeTool', params: { toolName, args } }),
        `Tool "${toolName}" in tab ${tab.tabId}`,
        timeoutMs,
      );
      const checked = validate(CallToolResult, payload, `result of ${toolName}`);
      if (!checked.ok) throw new ProtocolError(ErrorCode.FaultyToolResult, checked.error.message);
      audit.add({ ...entry, at: now(), outcome: checked.value.isError ? 'error' : 'ok', ms: now() - started });
      return checked.value;
    } catch (error) {
      const detail = errorMessage(error).slice(0, 1024);
      audit.add({ ...entry, at: now(), outcome: 'error', ms: now() - started, detail });
      throw error;
    }
  }

  #bestTab(route: Route, exclude: ReadonlySet<number>): TabTools | undefined {
    const { registry } = this.#options;
    const candidates = [...registry.tabs.values()].filter(
      (tab) => tab.domain === route.domain && registry.policy.access(tab.url) === 'allowed',
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
      this.#options.activeTabId(),
      exclude,
    )?.tab;
  }

  #isCached(route: Route): boolean {
    return this.#options.registry.cached.has(cacheKey(route.domain, route.toolName));
  }

  /**
   * A cached tool's last tab closed under a call that may have run: the call is not repeated, but its page is
   * reopened so its tools come back (issue 27 H7). Says where, or nothing when there is nothing to reopen.
   */
  async #recreateAfterLoss(route: Route, lost: ReadonlySet<number>): Promise<string> {
    if (!this.#isCached(route) || this.#bestTab(route, lost)) return '';
    try {
      const tab = await this.#reopen(route);
      return ` Its page was opened again in tab ${tab.tabId}, so its tools are back: check the state there.`;
    } catch (error) {
      return ` Opening its page again failed: ${errorMessage(error)}`;
    }
  }

  /** docs/requirements.md#hub: no tab has the tool any more, so open its page (the cached URL, else https://<domain>). */
  /** Reopens under way, by cached tool: concurrent calls share one new tab (issue 27 H4). */
  readonly #reopening = new Map<string, Promise<TabTools>>();

  #reopen(route: Route): Promise<TabTools> {
    const key = cacheKey(route.domain, route.toolName);
    const running = this.#reopening.get(key);
    if (running) return running;
    const reopening = this.#openFor(route).finally(() => this.#reopening.delete(key));
    this.#reopening.set(key, reopening);
    return reopening;
  }

  async #openFor(route: Route): Promise<TabTools> {
    const { registry, opener, openWaitMs } = this.#options;
    const cached = registry.cached.get(cacheKey(route.domain, route.toolName));
    const url = cached?.url ?? `https://${route.domain}`;
    if (!opener) {
      throw new ProtocolError(ErrorCode.TabNotFound, `No open tab of ${route.domain} offers "${route.toolName}".`);
    }
    this.#options.log('call.reopen', { url, tool: route.toolName });
    const tabId = await opener.open(url);
    // A page that redirected to another domain is not the cached tool's page.
    const registered = await this.#options.delivery.waitForRegistration(
      tabId,
      openWaitMs,
      (tab) => tab.domain === route.domain && hasTool(tab, route.toolName),
    );
    const tab = registry.tabs.get(tabId);
    if (!registered || !tab) {
      // A background tab the agent never asked for stays behind otherwise (issue 27 H4).
      await opener.close(tabId).catch((error: unknown) => {
        this.#options.log('call.reopen_close_failed', { tabId, error: errorMessage(error) });
      });
      throw new ProtocolError(
        ErrorCode.TabNotFound,
        `Opened ${url} in tab ${tabId} for "${route.toolName}", but its page did not offer that tool within ${openWaitMs} ms, so the tab was closed again. It may need a sign-in: open it with open_tab, sign in, then call again.`,
      );
    }
    return tab;
  }
}

/** A call that failed with one of these may go to another tab of the same site (a lost one only if replayable). */
const REROUTABLE: ReadonlySet<number> = new Set([ErrorCode.TabNotFound, ErrorCode.PageLostMidCall]);

/** Repeating a call in another tab is safe only for tools that say so. */
function isReplayable(tool: Tool | undefined): boolean {
  return tool?.annotations?.readOnlyHint === true || tool?.annotations?.idempotentHint === true;
}
