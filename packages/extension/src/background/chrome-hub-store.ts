import type { HubSnapshot, HubStore } from '@tabmcp/hub';
import type { Logger } from '@tabmcp/protocol';

const KEY = 'tabmcp.hub';
const SITES_KEY = 'tabmcp.sites';
/** In chrome.storage.session: tab ids, and so tab numbers, mean nothing after the browser restarts. */
const TAB_NUMBERS_KEY = 'tabmcp.tabNumbers';
const SAVE_DELAY_MS = 100;

/**
 * The hub's state in chrome.storage.local, so a stopped worker starts where it left off. Saves
 * of one burst (a page registering, then updating) are written once.
 */
export class ChromeHubStore implements HubStore {
  #pending: HubSnapshot | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly log: Logger) {}

  async load(): Promise<unknown> {
    const stored = await chrome.storage.local.get(KEY);
    return stored[KEY];
  }

  async loadSites(): Promise<unknown> {
    const stored = await chrome.storage.local.get(SITES_KEY);
    return stored[SITES_KEY];
  }

  /** Written at once: a user's decision must survive a worker that stops right after it. */
  saveSites(sites: Array<{ site: string; decision: 'allow' | 'block' }>): void {
    chrome.storage.local
      .set({ [SITES_KEY]: sites })
      .catch((error: unknown) => this.log('store.save-failed', { error: String(error) }));
  }

  async loadTabNumbers(): Promise<unknown> {
    const stored = await chrome.storage.session.get(TAB_NUMBERS_KEY);
    return stored[TAB_NUMBERS_KEY];
  }

  /** Written at once: a worker that stops right after giving a number must not give it again. */
  saveTabNumbers(next: Record<string, number>): void {
    chrome.storage.session
      .set({ [TAB_NUMBERS_KEY]: next })
      .catch((error: unknown) => this.log('store.save-failed', { error: String(error) }));
  }

  save(snapshot: HubSnapshot): void {
    this.#pending = snapshot;
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const value = this.#pending;
      this.#pending = undefined;
      chrome.storage.local
        .set({ [KEY]: value })
        .catch((error: unknown) => this.log('store.save-failed', { error: String(error) }));
    }, SAVE_DELAY_MS);
  }
}
