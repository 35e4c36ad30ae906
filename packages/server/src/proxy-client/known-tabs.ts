import type { TabInfo } from '@tabmcp/protocol';
import type { BrowserEvent } from '../core/browser-connection';
import { diffTabs } from './tab-diff';

/**
 * The tabs as the session was last told them, by the getTabs poll's events or a call's answer
 * (connect, open_tab, close_tab), with where each side's word was heard (ProxyRpc's places).
 * The poll and a call each resume after their own awaits, so the one heard first may be applied
 * last; the places keep the older word from undoing the newer (docs/remote.md, "What crosses the
 * proxy"; decisions 361–362).
 */
export class KnownTabs {
  #tabs = new Map<number, TabInfo>();
  /** The newest answer the last applied poll took in. */
  #pollHeardAt = 0;
  /** The newest answer a call wrote from. */
  #callHeardAt = 0;
  /** connect() in flight: the session holds the poll's events meanwhile and would apply them over connect's tabs. */
  #connecting: Promise<unknown> | undefined;

  /** A browser just attached: nothing is known of its tabs yet. */
  forget(): void {
    this.#tabs = new Map();
  }

  /** Track a connect() in flight until it settles (see #connecting). */
  noteConnecting(connecting: Promise<unknown>): void {
    this.#connecting = connecting;
    const settled = () => {
      if (this.#connecting === connecting) this.#connecting = undefined;
    };
    connecting.then(settled, settled);
  }

  /** connect's answer: every tab the browser has, heard at `heardAt`. */
  callListedAll(tabs: readonly TabInfo[], heardAt: number): void {
    this.#tabs = new Map(tabs.map((tab) => [tab.id, tab]));
    this.#noteCall(heardAt);
  }

  /** A call's answer put this tab (open_tab). */
  callPut(tab: TabInfo, heardAt: number): void {
    this.#tabs.set(tab.id, tab);
    this.#noteCall(heardAt);
  }

  /** A call's answer removed this tab (close_tab). */
  callRemoved(tabId: number, heardAt: number): void {
    this.#tabs.delete(tabId);
    this.#noteCall(heardAt);
  }

  #noteCall(heardAt: number): void {
    this.#callHeardAt = Math.max(this.#callHeardAt, heardAt);
  }

  /**
   * The tab as the poll last said it, if the poll applied an answer heard after a call's (`heardAt`):
   * that word is the newer, and the session already has it. None if the poll no longer lists the tab:
   * it closed since, the session heard so, and the call's tab stands for the caller to find closed.
   */
  polledAfter(tabId: number, heardAt: number): TabInfo | undefined {
    return this.#pollHeardAt > heardAt ? this.#tabs.get(tabId) : undefined;
  }

  /** Whether a call wrote from an answer heard after the poll's `heardAt`, once a connect in flight is over. */
  async supersededByCall(heardAt: number): Promise<boolean> {
    await this.#connecting?.catch(() => {});
    return this.#callHeardAt > heardAt;
  }

  /** A poll's answer (the newest place it used: `heardAt`) taken in: the events that tell the session. */
  polled(tabs: readonly TabInfo[], heardAt: number): BrowserEvent[] {
    const events = diffTabs(this.#tabs, tabs);
    this.#tabs = new Map(tabs.map((tab) => [tab.id, tab]));
    this.#pollHeardAt = heardAt;
    return events;
  }
}
