import {
  type BackgroundToContent,
  ErrorCode,
  errorMessage,
  PendingRequests,
  type PortResponse,
  ProtocolError,
} from '@tabmcp/protocol';
import type { TabTools } from './tab-tools';
import type { TabTransport } from './tab-transport';

export interface DeliveryOptions {
  transport: TabTransport;
  tab(tabId: number): TabTools | undefined;
  /** A tab that is still loading (no content script yet) is retried this often ... */
  retries: number;
  /** ... this far apart, or sooner when it registers. */
  retryDelayMs: number;
}

/**
 * Requests to tabs and their answers: the pending map of executeTool and pageRequest, retries while
 * a tab's content script is not connected, and waits for a tab to register its tools.
 */
export class TabDelivery {
  readonly #options: DeliveryOptions;
  readonly #pending = new PendingRequests<unknown>();
  readonly #registrationWaiters = new Map<number, Set<() => void>>();

  constructor(options: DeliveryOptions) {
    this.#options = options;
  }

  /**
   * Sends one request to a tab and waits for its answer. A tab whose content script is not
   * connected yet (loading, or restored after a worker restart) is retried a few times.
   */
  async deliver(
    tabId: number,
    build: (id: string) => BackgroundToContent,
    what: string,
    timeoutMs: number,
  ): Promise<unknown> {
    const { retries, retryDelayMs, transport } = this.#options;
    for (let attempt = 0; ; attempt++) {
      const tab = this.#options.tab(tabId);
      if (!tab) throw new ProtocolError(ErrorCode.TabNotFound, `Tab ${tabId} closed before ${what} could run`);
      if (tab.connected) {
        // Unguessable and answered only by the tab it went to: another tab (issue 26: ids were call-1, call-2…)
        // cannot settle this call with a forged result.
        const id = `call-${crypto.randomUUID()}`;
        const answer = this.#pending.wait(id, tabId, timeoutMs, () => what);
        try {
          transport.send(tabId, build(id));
          return await answer;
        } catch (error) {
          if (!this.#pending.reject(id, toError(error)) || !isUndelivered(error)) throw error;
          answer.catch(() => {});
          tab.connected = false;
        }
      }
      if (attempt >= retries) {
        throw new ProtocolError(
          ErrorCode.TabNotFound,
          `Tab ${tabId} has no connected page after ${retries} retries (it may still be loading or has crashed). Try again, or call list_tabs.`,
        );
      }
      await this.waitForRegistration(tabId, retryDelayMs);
    }
  }

  answer(message: PortResponse, fromTabId: number): void {
    const id = String(message.id);
    if (this.#pending.groupOf(id) !== fromTabId) return;
    if (message.result.success) this.#pending.resolve(id, message.result.payload);
    else {
      const code = message.result.code ?? ErrorCode.InternalError;
      this.#pending.reject(id, new ProtocolError(code, message.result.payload));
    }
  }

  /** The tab went away: its calls are answered now, as calls the page may have run. */
  failTab(tabId: number, reason: string): void {
    this.#pending.rejectGroup(tabId, () => new ProtocolError(ErrorCode.PageLostMidCall, reason));
  }

  /** The tab registered its tools: whoever waits for it looks again. */
  registered(tabId: number): void {
    for (const check of [...(this.#registrationWaiters.get(tabId) ?? [])]) check();
  }

  /** True once the tab is connected and passes `accept`; false when `timeoutMs` passes first. */
  waitForRegistration(
    tabId: number,
    timeoutMs: number,
    accept: (tab: TabTools) => boolean = () => true,
  ): Promise<boolean> {
    const ready = () => {
      const tab = this.#options.tab(tabId);
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
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}

/** The transport throws synchronously when a tab has no connected content script: nothing was delivered. */
function isUndelivered(error: unknown): boolean {
  return !(error instanceof ProtocolError);
}
