import {
  type BrowserInfo,
  type CallToolResult,
  ErrorCode,
  errorMessage,
  ListenerSet,
  type Logger,
  type OpenTabResult,
  PAGE_LOAD_BUDGET_MS,
  type PageMethod,
  PERSON_WAIT_MS,
  type PersonWait,
  ProtocolError,
  ProxyDisconnectedParams,
  type TabInfo,
  validate,
  WAITING_FOR_PERSON_NOTIFICATION,
  waitUntil,
} from '@tabmcp/protocol';
import type { BrowserConnection, LinkEvents } from '../core/browser-connection';
import { untilUp } from '../core/until-up';
import { ForwardedCalls } from './forwarded-calls';
import { withJitter } from './jitter';
import { KnownTabs } from './known-tabs';
import { type ToolFetcher, tabWithTools, withTools } from './omitted-tools';
import { authenticate, chooseListedBrowser, connectToBrowser } from './proxy-control';
import { TOKEN_REFUSED_NEXT_STEP } from './proxy-errors';
import {
  currentToken,
  type ProxyConnectionOptions,
  type ResolvedProxyOptions,
  resolveProxyOptions,
} from './proxy-options';
import { ProxyRpc } from './proxy-rpc';
import { pollTabs } from './tab-poll';

const MIN_BACKOFF_MS = 250;

/**
 * The session's browser connection through a docs/requirements.md#remote-proxy relay: mcp_handshake,
 * list_extensions, connect (by id, by name, or the only browser), then the session's requests as
 * forwarded methods (forwarded-calls.ts). Tab and tool changes come from a getTabs long poll (tab-poll.ts;
 * the extension stays passive), which shares the tabs known with the calls (known-tabs.ts). When the
 * browser or the proxy goes away, every call in flight is answered with an error that says so, the
 * session hears `down`, and this side reconnects with backoff.
 */
export class ProxyBrowserConnection implements BrowserConnection {
  readonly #options: ResolvedProxyOptions;
  readonly #log: Logger;
  #rpc: ProxyRpc | undefined;
  #up = false;
  #epoch = 0;
  /** The tabs as the session was last told them, and whose word (the poll's or a call's) is the newer. */
  readonly #known = new KnownTabs();
  /** This client's connection at the proxy: the browser sees our request ids as `<connectionId>:<id>`. */
  #connectionId: string | undefined;
  /** The session's requests to the browser, refused with #problem while none is connected. */
  readonly #forwarded: ForwardedCalls;
  #problem = 'tabmcp is still connecting to the proxy';
  #stopped = false;
  /** Aborted by close(): wakes the reconnect loop's sleeps at once. */
  readonly #closing = new AbortController();
  #lost: ((reason: string) => void) | undefined;
  readonly #listeners = new ListenerSet<LinkEvents>();

  constructor(options: ProxyConnectionOptions) {
    this.#options = resolveProxyOptions(options);
    this.#log = this.#options.log;
    this.#forwarded = new ForwardedCalls(this.#options.proxyUrl, this.#options.requestTimeoutMs, () =>
      this.#up && this.#rpc ? { rpc: this.#rpc, connectionId: this.#connectionId } : { problem: this.#problem },
    );
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
    this.#known.noteConnecting(connecting);
    return connecting;
  }

  async #connectNow(): Promise<{ browser: BrowserInfo; tabs: TabInfo[] }> {
    const answer = await this.#forwarded.heard('getTabs', { waitMs: 0 });
    const { tabs, heardAt } = await withTools(answer.value.tabs, answer.heardAt, this.#toolsOf, this.#log);
    this.#known.callListedAll(tabs, heardAt);
    return { browser: answer.value.browser, tabs };
  }

  async openTab(url: string, focus: boolean, waitForToolsMs: number): Promise<OpenTabResult> {
    const opened = await this.#forwarded.heard(
      'createTab',
      { url, active: focus, waitForToolsMs },
      PAGE_LOAD_BUDGET_MS + waitForToolsMs + 5_000,
    );
    const { tab, heardAt } = await tabWithTools(opened, this.#toolsOf, this.#log);
    const toolsReady = opened.value.toolsReady;
    const polled = this.#known.polledAfter(tab.id, heardAt);
    if (polled) return { tab: polled, focused: focus, toolsReady };
    this.#known.callPut(tab, heardAt);
    return { tab, focused: focus, toolsReady };
  }

  async focusTab(tabId: number): Promise<{ tab: TabInfo }> {
    const { tab, heardAt } = await tabWithTools(
      await this.#forwarded.heard('activateTab', { tabId }),
      this.#toolsOf,
      this.#log,
    );
    return { tab: this.#known.polledAfter(tab.id, heardAt) ?? tab };
  }

  #toolsOf: ToolFetcher = async (tabId) => {
    const listed = await this.#forwarded.heard('listPageTools', { tabId });
    return { tools: listed.value.tools, heardAt: listed.heardAt };
  };

  async closeTab(tabId: number): Promise<{ closed: true; tabId: number }> {
    const closed = await this.#forwarded.heard('closeTab', { tabId });
    this.#known.callRemoved(tabId, closed.heardAt);
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
    return this.#forwarded.value(
      'callPageTool',
      { tabId, name: toolName, arguments: args, timeoutMs },
      timeoutMs + 5_000 + PERSON_WAIT_MS,
      onWaiting,
    );
  }

  async pageRequest(tabId: number, method: PageMethod, params?: Record<string, unknown>): Promise<unknown> {
    return this.#forwarded.value('pageRequest', { tabId, method, ...(params ? { params } : {}) });
  }

  async #run(): Promise<void> {
    let backoff = MIN_BACKOFF_MS;
    while (!this.#stopped) {
      let rpc: ProxyRpc | undefined;
      try {
        rpc = await ProxyRpc.open(`${this.#options.proxyUrl}/mcp`, this.#log, currentToken(this.#options));
        this.#rpc = rpc;
        const current = rpc;
        rpc.onnotification = (method, params) => this.#onNotification(current, method, params);
        await authenticate(rpc, currentToken(this.#options), this.#options.requestTimeoutMs, this.#log);
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

  /** list_extensions + connect; true once connected to a browser. */
  async #attach(rpc: ProxyRpc): Promise<boolean> {
    const timeout = this.#options.requestTimeoutMs;
    const choice = await chooseListedBrowser(
      rpc,
      { extensionId: this.#options.extensionId, browserName: this.#options.browserName },
      timeout,
    );
    if ('problem' in choice) {
      if (choice.problem !== this.#problem) this.#log('proxy.no-browser', { problem: choice.problem });
      this.#problem = choice.problem;
      return false;
    }
    const connected = await connectToBrowser(rpc, choice.extension, timeout, (problem) => {
      this.#problem = problem;
      this.#log('proxy.connect-failed', { problem });
    });
    // The browser may have left between the list and the connect: look again.
    if (!connected) return false;
    this.#known.forget();
    this.#connectionId = connected.connection_id;
    this.#up = true;
    this.#epoch += 1;
    this.#problem = '';
    this.#log('proxy.connected', { browser: connected.extension_name, extensionId: connected.extension_id });
    this.#listeners.emit('up');
    this.#startPoll(rpc);
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
      this.#forwarded.heardWaiting(params);
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

  /** The getTabs long poll of the browser just attached, until it is gone (the epoch moves on) or close(). */
  #startPoll(rpc: ProxyRpc): void {
    const epoch = this.#epoch;
    void pollTabs({
      rpc,
      known: this.#known,
      isCurrent: () => this.#epoch === epoch,
      isStopped: () => this.#stopped,
      pollWaitMs: this.#options.pollWaitMs,
      requestTimeoutMs: this.#options.requestTimeoutMs,
      log: this.#log,
      emit: (event) => this.#listeners.emit('event', event),
      sleep: (ms) => this.#sleep(ms),
    });
  }

  /** Resolves after `ms`, or at once when the connection closes. */
  #sleep(ms: number): Promise<void> {
    const { signal } = this.#closing;
    return waitUntil<void>(() => undefined, { timeoutMs: ms, onTimeout: () => undefined, signal }).catch(() => {});
  }
}
