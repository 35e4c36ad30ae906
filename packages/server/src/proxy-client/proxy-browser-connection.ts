import {
  type BrowserInfo,
  type CallToolResult,
  ErrorCode,
  errorMessage,
  ListExtensionsResult,
  ListenerSet,
  type Logger,
  McpHandshakeResult,
  type OpenTabResult,
  PAGE_LOAD_BUDGET_MS,
  type PageMethod,
  PERSON_WAIT_MS,
  type PersonWait,
  ProtocolError,
  ProxyConnectResult,
  ProxyDisconnectedParams,
  type RemoteMethodName,
  RemoteMethods,
  type RemoteParams,
  type RemoteResult,
  type RemoteTabInfo,
  type TabInfo,
  validate,
  WAITING_FOR_PERSON_NOTIFICATION,
  WaitingForPersonParams,
  waitUntil,
} from '@tabmcp/protocol';
import type { BrowserConnection, LinkEvents } from '../core/browser-connection';
import { untilUp } from '../core/until-up';
import { chooseExtension, plainTextTokenWarning } from './choose-extension';
import { withJitter } from './jitter';
import { ProxyRpc } from './proxy-rpc';
import { diffTabs } from './tab-diff';

export interface ProxyConnectionOptions {
  /** The proxy's base URL (ws:// or wss://); this side dials `<proxyUrl>/mcp`. */
  proxyUrl: string;
  /** JWT for mcp_handshake (the same user as the browser's token), or where to read it at each (re)connect. */
  token: string | (() => string);
  /** Connect to the browser with this name (the extension's "browser name" option). */
  browserName?: string;
  /** Or to the browser with this id from list_extensions. */
  extensionId?: string;
  log?: Logger;
  /** Control methods and quick forwarded calls. */
  requestTimeoutMs?: number;
  maxBackoffMs?: number;
  /** How long one getTabs long poll may wait in the extension. */
  pollWaitMs?: number;
}

const MIN_BACKOFF_MS = 250;
/** What to do about a token the proxy refused: only a new one helps. */
const TOKEN_REFUSED_NEXT_STEP =
  'Mint a new agent token (tabmcp-proxy token --user <id> --role client) and give it to tabmcp in TABMCP_PROXY_TOKEN or --token-file';
/** A failed poll is retried after this pause, so a broken browser is not hammered. */
const POLL_RETRY_MS = 1_000;
/**
 * Polls answered back to back (a page that changes its tools all the time) are spaced by at least
 * this much, which keeps the poll far below the proxy's rate limit (200 requests/s per client).
 */
const MIN_POLL_GAP_MS = 50;

type Tools = NonNullable<TabInfo['tools']>;
/** Where a tab's tools come from when getTabs left them out, with the answer's place (ProxyRpc's heardAt). */
type ToolFetcher = (tabId: number) => Promise<{ tools: Tools; heardAt: number }>;

/**
 * The session's browser connection through a docs/requirements.md#remote-proxy relay: mcp_handshake,
 * list_extensions, connect (by id, by name, or the only browser), then the session's requests as
 * forwarded methods. Tab and tool changes come from a getTabs long poll (the extension stays
 * passive). When the browser or the proxy goes away, every call in flight is answered with an
 * error that says so, the session hears `down`, and this side reconnects with backoff.
 */
export class ProxyBrowserConnection implements BrowserConnection {
  readonly #options: Required<Omit<ProxyConnectionOptions, 'browserName' | 'extensionId'>> &
    Pick<ProxyConnectionOptions, 'browserName' | 'extensionId'>;
  readonly #log: Logger;
  #rpc: ProxyRpc | undefined;
  #up = false;
  #epoch = 0;
  /** The tabs as the session was last told them, by the poll's events or a call's answer. */
  #known = new Map<number, TabInfo>();
  /**
   * Where #known's words were heard (ProxyRpc's places): the newest answer the last applied poll took
   * in, and the newest one a call (connect, open_tab, close_tab) wrote. The poll and a call each
   * resume after their own awaits, so the one heard first may be applied last; the places keep the
   * older word from undoing the newer (docs/remote.md, "What crosses the proxy"; decisions 361–362).
   */
  #pollHeardAt = 0;
  #callHeardAt = 0;
  /** connect() in flight: the session holds the poll's events meanwhile and would apply them over connect's tabs. */
  #connecting: Promise<unknown> | undefined;
  /** This client's connection at the proxy: the browser sees our request ids as `<connectionId>:<id>`. */
  #connectionId: string | undefined;
  /** Who hears that a call waits for the person, by the id the browser sees (WAITING_FOR_PERSON_NOTIFICATION). */
  readonly #waitListeners = new Map<string, (wait: PersonWait) => void>();
  #problem = 'tabmcp is still connecting to the proxy';
  #stopped = false;
  /** Aborted by close(): wakes the reconnect loop's sleeps at once. */
  readonly #closing = new AbortController();
  #lost: ((reason: string) => void) | undefined;
  readonly #listeners = new ListenerSet<LinkEvents>();

  constructor(options: ProxyConnectionOptions) {
    this.#options = {
      requestTimeoutMs: 30_000,
      maxBackoffMs: 5_000,
      pollWaitMs: 20_000,
      log: () => {},
      ...options,
      proxyUrl: options.proxyUrl.replace(/\/+$/, ''),
    };
    this.#log = this.#options.log;
    const insecure = plainTextTokenWarning(this.#options.proxyUrl);
    if (insecure) this.#log('proxy.insecure', { warning: insecure });
  }

  get isUp(): boolean {
    return this.#up;
  }

  /** Why no browser is connected now, for error messages. */
  get problem(): string {
    return this.#problem;
  }

  get proxyUrl(): string {
    return this.#options.proxyUrl;
  }

  start(): void {
    void this.#run();
  }

  close(): void {
    this.#stopped = true;
    this.#down('tabmcp is shutting down');
    this.#rpc?.close();
    this.#closing.abort();
  }

  on<K extends keyof LinkEvents>(type: K, listener: LinkEvents[K]): () => void {
    return this.#listeners.on(type, listener);
  }

  waitUntilUp(timeoutMs: number): Promise<boolean> {
    return untilUp(this, timeoutMs);
  }

  connect(): Promise<{ browser: BrowserInfo; tabs: TabInfo[] }> {
    const connecting = this.#connectNow();
    this.#connecting = connecting;
    const settled = () => {
      if (this.#connecting === connecting) this.#connecting = undefined;
    };
    connecting.then(settled, settled);
    return connecting;
  }

  async #connectNow(): Promise<{ browser: BrowserInfo; tabs: TabInfo[] }> {
    const answer = await this.#callHeard('getTabs', { waitMs: 0 });
    const { tabs, heardAt } = await this.#withTools(answer.value.tabs, answer.heardAt, this.#toolsOf);
    this.#known = new Map(tabs.map((tab) => [tab.id, tab]));
    this.#callHeardAt = Math.max(this.#callHeardAt, heardAt);
    return { browser: answer.value.browser, tabs };
  }

  async openTab(url: string, focus: boolean, waitForToolsMs: number): Promise<OpenTabResult> {
    const opened = await this.#callHeard(
      'createTab',
      { url, active: focus, waitForToolsMs },
      PAGE_LOAD_BUDGET_MS + waitForToolsMs + 5_000,
    );
    const { tab, heardAt } = await this.#tabWithTools(opened);
    const toolsReady = opened.value.toolsReady;
    const polled = this.#polledAfter(tab.id, heardAt);
    if (polled) return { tab: polled, focused: focus, toolsReady };
    this.#known.set(tab.id, tab);
    this.#callHeardAt = Math.max(this.#callHeardAt, heardAt);
    return { tab, focused: focus, toolsReady };
  }

  async focusTab(tabId: number): Promise<{ tab: TabInfo }> {
    const { tab, heardAt } = await this.#tabWithTools(await this.#callHeard('activateTab', { tabId }));
    return { tab: this.#polledAfter(tab.id, heardAt) ?? tab };
  }

  /** A call's tab with its tools (fetched when the answer left them out), and the place of the newest answer used. */
  async #tabWithTools(answer: { value: { tab: RemoteTabInfo }; heardAt: number }) {
    let heardAt = answer.heardAt;
    const tab = await this.#withToolsOf(answer.value.tab, async (tabId) => {
      const fetched = await this.#toolsOf(tabId);
      heardAt = fetched.heardAt;
      return fetched;
    });
    return { tab, heardAt };
  }

  /**
   * The tab as the poll last said it, if the poll applied an answer heard after a call's (`heardAt`):
   * that word is the newer, and the session already has it. None if the poll no longer lists the tab:
   * it closed since, the session heard so, and the call's tab stands for the caller to find closed.
   */
  #polledAfter(tabId: number, heardAt: number): TabInfo | undefined {
    return this.#pollHeardAt > heardAt ? this.#known.get(tabId) : undefined;
  }

  #toolsOf: ToolFetcher = async (tabId) => {
    const listed = await this.#callHeard('listPageTools', { tabId });
    return { tools: listed.value.tools, heardAt: listed.heardAt };
  };

  async closeTab(tabId: number): Promise<{ closed: true; tabId: number }> {
    const closed = await this.#callHeard('closeTab', { tabId });
    this.#known.delete(tabId);
    this.#callHeardAt = Math.max(this.#callHeardAt, closed.heardAt);
    return closed.value;
  }

  async callTool(
    tabId: number,
    toolName: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<CallToolResult> {
    // The browser may first wait for the person to confirm the call (PERSON_WAIT_MS), saying so meanwhile.
    return this.#call(
      'callPageTool',
      { tabId, name: toolName, arguments: args, timeoutMs },
      timeoutMs + 5_000 + PERSON_WAIT_MS,
      onWaiting,
    );
  }

  async pageRequest(tabId: number, method: PageMethod, params?: Record<string, unknown>): Promise<unknown> {
    return this.#call('pageRequest', { tabId, method, ...(params ? { params } : {}) });
  }

  /** Any forwarded method, checked against its result schema (also used for the remote-only methods). */
  async #call<M extends RemoteMethodName>(
    method: M,
    params: RemoteParams<M>,
    timeoutMs = this.#options.requestTimeoutMs,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<RemoteResult<M>> {
    return (await this.#callHeard(method, params, timeoutMs, onWaiting)).value;
  }

  /** #call, with the answer's place among the frames received. */
  async #callHeard<M extends RemoteMethodName>(
    method: M,
    params: RemoteParams<M>,
    timeoutMs = this.#options.requestTimeoutMs,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<{ value: RemoteResult<M>; heardAt: number }> {
    const rpc = this.#rpc;
    if (!this.#up || !rpc) {
      throw new ProtocolError(
        ErrorCode.BrowserNotConnected,
        `The remote browser is not connected through the proxy ${this.#options.proxyUrl}: ${this.#problem}`,
      );
    }
    let answer: { value: unknown; heardAt: number };
    try {
      let seenAs: string | undefined;
      const heard = onWaiting
        ? (id: string) => {
            seenAs = `${this.#connectionId}:${id}`;
            this.#waitListeners.set(seenAs, onWaiting);
          }
        : undefined;
      answer = await rpc
        .requestHeard(method, params as Record<string, unknown>, timeoutMs, heard)
        .finally(() => seenAs && this.#waitListeners.delete(seenAs));
    } catch (error) {
      throw explain(error, method, this.#options.proxyUrl);
    }
    const parsed = validate(RemoteMethods[method].result, answer.value, `${method} answer from the browser`);
    if (!parsed.ok) throw parsed.error;
    return { value: parsed.value as RemoteResult<M>, heardAt: answer.heardAt };
  }

  async #run(): Promise<void> {
    let backoff = MIN_BACKOFF_MS;
    while (!this.#stopped) {
      let rpc: ProxyRpc | undefined;
      try {
        rpc = await ProxyRpc.open(`${this.#options.proxyUrl}/mcp`, this.#log, this.#token());
        this.#rpc = rpc;
        const current = rpc;
        rpc.onnotification = (method, params) => this.#onNotification(current, method, params);
        const handshake = validate(
          McpHandshakeResult,
          await rpc.request('mcp_handshake', { accessToken: this.#token() }, this.#options.requestTimeoutMs),
          'mcp_handshake answer',
        );
        if (!handshake.ok) throw handshake.error;
        this.#log('proxy.authenticated', { user: handshake.value.user_id, client: handshake.value.mcp_client_id });
        // On one socket: connect to a browser, serve until it leaves, and look for it again.
        while (!this.#stopped && rpc.isOpen) {
          if (await this.#attach(rpc)) {
            backoff = MIN_BACKOFF_MS;
            this.#down(await this.#untilLost(rpc));
          } else {
            await this.#sleep(withJitter(backoff));
            backoff = Math.min(backoff * 2, this.#options.maxBackoffMs);
          }
        }
      } catch (error) {
        const refused = error instanceof ProtocolError && error.code === ErrorCode.TokenRefused;
        this.#problem = refused ? `${errorMessage(error)}. ${TOKEN_REFUSED_NEXT_STEP}` : errorMessage(error);
        this.#log('proxy.failed', { problem: this.#problem });
        // A refused token will not get better by asking quickly.
        if (refused) backoff = this.#options.maxBackoffMs;
      }
      this.#down(this.#problem);
      rpc?.close();
      if (this.#stopped) return;
      await this.#sleep(withJitter(backoff));
      backoff = Math.min(backoff * 2, this.#options.maxBackoffMs);
    }
  }

  #token(): string {
    const { token } = this.#options;
    return typeof token === 'string' ? token : token();
  }

  /** list_extensions + connect; true once connected to a browser. */
  async #attach(rpc: ProxyRpc): Promise<boolean> {
    const timeout = this.#options.requestTimeoutMs;
    const listed = validate(
      ListExtensionsResult,
      await rpc.request('list_extensions', {}, timeout),
      'list_extensions answer',
    );
    if (!listed.ok) throw listed.error;
    const choice = chooseExtension(listed.value.extensions, {
      extensionId: this.#options.extensionId,
      browserName: this.#options.browserName,
    });
    if ('problem' in choice) {
      if (choice.problem !== this.#problem) this.#log('proxy.no-browser', { problem: choice.problem });
      this.#problem = choice.problem;
      return false;
    }
    let connected: unknown;
    try {
      connected = await rpc.request('connect', { extension_id: choice.extension.id }, timeout);
    } catch (error) {
      // The browser may have left between the list and the connect: look again.
      this.#problem = `Could not connect to "${choice.extension.name}": ${errorMessage(error)}`;
      this.#log('proxy.connect-failed', { problem: this.#problem });
      if (error instanceof ProtocolError && error.code === ErrorCode.AlreadyConnected)
        await rpc.request('disconnect', {}, timeout).catch(() => {});
      return false;
    }
    const result = validate(ProxyConnectResult, connected, 'connect answer');
    if (!result.ok) throw result.error;
    this.#known = new Map();
    this.#connectionId = result.value.connection_id;
    this.#up = true;
    this.#epoch += 1;
    this.#problem = '';
    this.#log('proxy.connected', { browser: result.value.extension_name, extensionId: result.value.extension_id });
    this.#listeners.emit('up');
    void this.#poll(rpc, this.#epoch);
    return true;
  }

  /** Resolves with the reason once the connected browser is gone (disconnected) or the socket closed. */
  #untilLost(rpc: ProxyRpc): Promise<string> {
    return new Promise((resolve) => {
      this.#lost = resolve;
      rpc.closed.then((reason) => resolve(`the link to the proxy dropped: ${reason}`));
    });
  }

  #onNotification(rpc: ProxyRpc, method: string, params: unknown): void {
    if (rpc !== this.#rpc) return;
    // The browser's word that a call waits for the person; the proxy relays it to every client of the browser.
    if (method === WAITING_FOR_PERSON_NOTIFICATION) {
      const parsed = validate(WaitingForPersonParams, params, WAITING_FOR_PERSON_NOTIFICATION);
      if (parsed.ok) this.#waitListeners.get(parsed.value.requestId)?.(parsed.value.wait);
      return;
    }
    if (method === 'disconnected') {
      const parsed = validate(ProxyDisconnectedParams, params ?? {}, 'disconnected');
      const reason = parsed.ok ? (parsed.value.reason ?? 'no reason given') : 'no reason given';
      this.#lost?.(`the browser left the proxy: ${reason}`);
    }
  }

  #down(reason: string): void {
    this.#lost = undefined;
    if (!this.#up) return;
    this.#up = false;
    this.#epoch += 1;
    this.#problem = reason;
    this.#log('proxy.browser-lost', { reason });
    this.#rpc?.failAll(
      new ProtocolError(
        ErrorCode.BrowserNotConnected,
        `The remote browser is gone (${reason}); tabmcp reconnects by itself`,
      ),
    );
    this.#listeners.emit('down', `The remote browser is gone: ${reason}`);
  }

  /** The getTabs long poll: each answer is turned into the link events the session knows. */
  async #poll(rpc: ProxyRpc, epoch: number): Promise<void> {
    const wait = this.#options.pollWaitMs;
    let version: number | undefined;
    while (this.#epoch === epoch && !this.#stopped) {
      const started = Date.now();
      try {
        const params = version === undefined ? { waitMs: 0 } : { sinceVersion: version, waitMs: wait };
        const heard = await rpc.requestHeard('getTabs', params, wait + 15_000);
        const answer = validate(RemoteMethods.getTabs.result, heard.value, 'getTabs answer');
        if (this.#epoch !== epoch) return;
        if (!answer.ok) throw answer.error;
        const { tabs, heardAt } = await this.#withTools(answer.value.tabs, heard.heardAt, async (tabId) => {
          const fetched = await rpc.requestHeard('listPageTools', { tabId }, this.#options.requestTimeoutMs);
          const listed = validate(RemoteMethods.listPageTools.result, fetched.value, 'listPageTools answer');
          if (!listed.ok) throw listed.error;
          return { tools: listed.value.tools, heardAt: fetched.heardAt };
        });
        if (this.#epoch !== epoch) return;
        // A call wrote a word heard after this answer: the answer may be older, and applying it would
        // undo the call's (a tab just opened taken away). Ask again at once with the version kept: the
        // browser's tabs moved past it, so it answers at once with tabs at least as new as the call's.
        if (await this.#supersededByCall(heard.heardAt)) continue;
        version = answer.value.version;
        const events = diffTabs(this.#known, tabs);
        this.#known = new Map(tabs.map((tab) => [tab.id, tab]));
        this.#pollHeardAt = heardAt;
        for (const event of events) this.#listeners.emit('event', event);
        const gap = started + MIN_POLL_GAP_MS - Date.now();
        if (gap > 0) await this.#sleep(gap);
      } catch (error) {
        if (this.#epoch !== epoch) return;
        this.#log('proxy.poll-failed', { error: errorMessage(error) });
        await this.#sleep(POLL_RETRY_MS);
      }
    }
  }

  /** Whether a call wrote #known from an answer heard after the poll's `heardAt`, once a connect in flight is over. */
  async #supersededByCall(heardAt: number): Promise<boolean> {
    await this.#connecting?.catch(() => {});
    return this.#callHeardAt > heardAt;
  }

  /**
   * Tabs whose tools getTabs left out (too big to ride along) get them from listPageTools, one tab per
   * frame. A tab whose tools alone exceed the proxy's frame limit is listed with none, and the log says why.
   * `heardAt`: the place of the answer that listed the tabs; the result's is that of the newest answer used.
   */
  async #withTools(
    tabs: readonly RemoteTabInfo[],
    heardAt: number,
    fetchTools: ToolFetcher,
  ): Promise<{ tabs: TabInfo[]; heardAt: number }> {
    let newest = heardAt;
    const fetchNoting: ToolFetcher = async (tabId) => {
      const fetched = await fetchTools(tabId);
      newest = Math.max(newest, fetched.heardAt);
      return fetched;
    };
    const withTools = await Promise.all(tabs.map((tab) => this.#withToolsOf(tab, fetchNoting)));
    return { tabs: withTools, heardAt: newest };
  }

  async #withToolsOf(remote: RemoteTabInfo, fetchTools: ToolFetcher): Promise<TabInfo> {
    const { toolsOmitted, toolCount, ...tab } = remote;
    if (!toolsOmitted) return tab;
    try {
      return { ...tab, tools: (await fetchTools(tab.id)).tools };
    } catch (error) {
      this.#log('proxy.tools-unavailable', { tabId: tab.id, toolCount, error: errorMessage(error) });
      return { ...tab, tools: [] };
    }
  }

  /** A pause that close() cuts short. */
  /** Resolves after `ms`, or at once when the connection closes. */
  #sleep(ms: number): Promise<void> {
    const { signal } = this.#closing;
    return waitUntil<void>(() => undefined, { timeoutMs: ms, onTimeout: () => undefined, signal }).catch(() => {});
  }
}

/**
 * A forwarded call that failed because the browser went away says so, with what to do; other
 * failures of the proxy itself (rate limit, an unreachable instance) say where they come from.
 * Read off the proxy's codes (errors.ts), never its wording.
 */
function explain(error: unknown, method: string, proxyUrl: string): Error {
  if (!(error instanceof ProtocolError)) return error instanceof Error ? error : new Error(errorMessage(error));
  if (error.code === ErrorCode.ExtensionGone)
    return new ProtocolError(
      ErrorCode.BrowserNotConnected,
      `${method}: the remote browser disconnected from the proxy (${error.message}); tabmcp reconnects by itself`,
    );
  if (PROXY_OWN_CODES.has(error.code))
    return new ProtocolError(error.code, `${method} through the proxy ${proxyUrl}: ${error.message}`);
  return error;
}

/** Failures the proxy raises itself rather than passes on from the browser. */
const PROXY_OWN_CODES: ReadonlySet<number> = new Set([ErrorCode.ServerError, ErrorCode.ProxyRouteLost]);
