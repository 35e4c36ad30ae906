import { ErrorCode, errorMessage, type Logger, ProtocolError, withTimeout } from '@tabmcp/protocol';
import { DebuggingBar } from './debugging-bar';

const PROTOCOL_VERSION = '1.3';
/**
 * A session nobody used for this long is detached: Chrome shows the "started debugging this
 * browser" bar for as long as the debugger is attached (docs/decisions.md, 140).
 */
const IDLE_DETACH_MS = 15_000;
const PAGE_ENABLE_TIMEOUT_MS = 1_000;

type CdpListener = (tabId: number, method: string, params: Record<string, unknown>) => void;
type DetachListener = (tabId: number) => void;

/**
 * The extension's one way into chrome.debugger: sessions per tab, attached on first use, with the
 * Page domain enabled so every dialog that opens while attached is heard (Page.javascriptDialogOpening)
 * and can be answered. A session is detached once idle, unless someone
 * holds it (proxy mode keeps CDP state between forwarded commands; an open dialog waits for its
 * answer) or the user cancels the bar.
 */
export class DebuggerSessions {
  readonly #attaching = new Map<number, Promise<void>>();
  readonly #idleTimers = new Map<number, ReturnType<typeof setTimeout>>();
  /** When each tab's session was last used: the idle timer is armed once and checks this when it fires. */
  readonly #lastUsed = new Map<number, number>();
  readonly #holds = new Map<number, Set<string>>();
  readonly #listeners = new Set<CdpListener>();
  readonly #detachListeners = new Set<DetachListener>();
  /** Tabs whose Page domain answered its enable: every dialog that opens there from now on is reported. */
  readonly #hearing = new Set<number>();
  readonly #bar = new DebuggingBar();

  constructor(private readonly log: Logger = () => {}) {
    chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId === undefined) return;
      this.#forget(source.tabId);
      this.log('debugger.detached', { tabId: source.tabId, reason });
      for (const listener of this.#detachListeners) listener(source.tabId);
    });
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId === undefined || !this.#attaching.has(source.tabId)) return;
      for (const listener of this.#listeners) listener(source.tabId, method, (params ?? {}) as Record<string, unknown>);
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.#forget(tabId));
  }

  isAttached(tabId: number): boolean {
    return this.#attaching.has(tabId);
  }

  /**
   * The tab's session is attached and its Page domain answered: a dialog that opens there now is
   * reported (Page.javascriptDialogOpening). False while a page blocked by a dialog (or busy) has
   * not answered Page.enable.
   */
  hearsDialogs(tabId: number): boolean {
    return this.#hearing.has(tabId);
  }

  /** The browser ended a tab's session (the user cancelled the bar, the tab crashed); the result unsubscribes. */
  onDetach(listener: DetachListener): () => void {
    this.#detachListeners.add(listener);
    return () => this.#detachListeners.delete(listener);
  }

  /** CDP events of every attached tab; the result unsubscribes. */
  onEvent(listener: CdpListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A command to the tab's session, or to a child session of it (`sessionId`: a frame of another process, flattened). */
  async send<T = unknown>(
    tabId: number,
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<T> {
    await this.attach(tabId);
    this.#touch(tabId);
    try {
      return (await chrome.debugger.sendCommand(sessionId ? { tabId, sessionId } : { tabId }, method, params)) as T;
    } catch (error) {
      throw new ProtocolError(ErrorCode.ServerError, `CDP ${method} failed in tab ${tabId}: ${errorMessage(error)}`);
    } finally {
      this.#touch(tabId);
    }
  }

  /** Keeps the tab's session attached while `why` holds; `release` lets it idle out again. */
  hold(tabId: number, why: string): void {
    const holds = this.#holds.get(tabId) ?? new Set<string>();
    holds.add(why);
    this.#holds.set(tabId, holds);
  }

  release(tabId: number, why: string): void {
    const holds = this.#holds.get(tabId);
    holds?.delete(why);
    if (holds?.size === 0) this.#holds.delete(tabId);
    this.#touch(tabId);
  }

  attach(tabId: number): Promise<void> {
    let attaching = this.#attaching.get(tabId);
    if (!attaching) {
      attaching = this.#attachNew(tabId, this.#attaching.size > 0);
      this.#attaching.set(tabId, attaching);
      this.#touch(tabId);
    }
    return attaching;
  }

  async #attachNew(tabId: number, othersAttached: boolean): Promise<void> {
    const heightBefore = await this.#bar.heightBefore(tabId, othersAttached);
    const fresh = await chrome.debugger.attach({ tabId }, PROTOCOL_VERSION).then(
      () => true,
      (error: unknown) => {
        const message = errorMessage(error);
        // A worker restart forgets that it had attached; the tab still is (and the bar is shown).
        if (/already attached/i.test(message)) return false;
        this.#attaching.delete(tabId);
        throw new ProtocolError(
          /no tab/i.test(message) ? ErrorCode.TabNotFound : ErrorCode.ServerError,
          `Cannot debug tab ${tabId}: ${message}`,
        );
      },
    );
    this.log('debugger.attached', { tabId });
    const resize = fresh && heightBefore !== undefined ? this.#nextResize(tabId) : undefined;
    // Page events are how dialogs are heard, and only a dialog that opens after this is
    // answerable (Page.handleJavaScriptDialog knows no dialog opened before: docs/decisions.md).
    // A page already blocked by one never answers it, hence the bound.
    const enabled = chrome.debugger.sendCommand({ tabId }, 'Page.enable').then(
      () => {
        // Late too: once the dialog that held it closes, later dialogs are heard.
        if (this.#attaching.has(tabId)) this.#hearing.add(tabId);
        return true;
      },
      () => false,
    );
    const heard = await withTimeout(enabled, { timeoutMs: PAGE_ENABLE_TIMEOUT_MS, onTimeout: () => false });
    // A page that did not answer (a dialog blocks it) is measured by no call, and would not tell of its resize.
    if (!resize || heightBefore === undefined || !heard) {
      resize?.stop();
      return;
    }
    // The call that attached measures the page next: it does so in the window the bar leaves (debugging-bar.ts).
    const started = Date.now();
    try {
      const came = await this.#bar.arrival(tabId, heightBefore, resize.heard);
      this.log('debugger.bar', { tabId, came, waitedMs: Date.now() - started });
    } finally {
      resize.stop();
    }
  }

  /** The tab's next Page.frameResized (the Page domain is enabled on attach). */
  #nextResize(tabId: number): { heard: Promise<void>; stop(): void } {
    let stop = () => {};
    const heard = new Promise<void>((resolve) => {
      stop = this.onEvent((eventTab, method) => {
        if (eventTab === tabId && method === 'Page.frameResized') resolve();
      });
    });
    return { heard, stop };
  }

  /**
   * Marks the session used. Its idle timer is armed once, not again on every use (each call to a tab
   * uses it twice): when it fires, a session used since waits out the rest of its idle time.
   */
  #touch(tabId: number): void {
    this.#lastUsed.set(tabId, Date.now());
    if (this.#idleTimers.has(tabId) || !this.#attaching.has(tabId)) return;
    this.#armIdle(tabId, IDLE_DETACH_MS);
  }

  #armIdle(tabId: number, ms: number): void {
    this.#idleTimers.set(
      tabId,
      setTimeout(() => {
        this.#idleTimers.delete(tabId);
        // A held session is not idle; its release touches it again.
        if (this.#holds.has(tabId) || !this.#attaching.has(tabId)) return;
        const idleFor = Date.now() - (this.#lastUsed.get(tabId) ?? 0);
        if (idleFor < IDLE_DETACH_MS) this.#armIdle(tabId, IDLE_DETACH_MS - idleFor);
        else this.#detach(tabId);
      }, ms),
    );
  }

  #detach(tabId: number): void {
    this.#forget(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }

  #forget(tabId: number): void {
    clearTimeout(this.#idleTimers.get(tabId));
    this.#idleTimers.delete(tabId);
    this.#lastUsed.delete(tabId);
    if (this.#attaching.delete(tabId) && this.#attaching.size === 0) this.#bar.lastSessionEnded();
    this.#holds.delete(tabId);
    this.#hearing.delete(tabId);
  }
}
