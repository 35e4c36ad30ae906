import { errorMessage, type Logger, type SiteAccess } from '@tabmcp/protocol';
import { BRIDGE_SLEEP_EVENT } from '../bridge/channel';
import { BRIDGE_REQUEST, SLEEP_MESSAGE } from '../page-injection-messages';

/** The content script registered while an agent is connected; none is in the manifest. */
const CONTENT_SCRIPT_ID = 'tabmcp-content';
/**
 * An agent that comes back within this (a server restarting, a peer taking the port over, a worker
 * restart's redial) finds its tabs as they were; after it, the pages get back to running nothing.
 */
const SLEEP_AFTER_MS = 10_000;
/** Documents a content script can run in, as the manifest's `<all_urls>` used to allow. */
const INJECTABLE = /^(https?|file):/;

export type AgentLink = 'local' | 'proxy';

interface InjectionContext {
  /** The site policy, once the hub restored its decisions. */
  siteAccess(url: string | undefined): SiteAccess;
  /** Resolves once the hub restored (its site decisions with it). */
  restored: Promise<unknown>;
  /** Whether the tab's content script is running now (its Port is up). */
  connected(tabId: number): boolean;
  log: Logger;
}

/**
 * What runs in the pages (docs/security.md, "What runs in a page"): nothing while no agent is
 * connected. When the local link or the proxy link comes up, the content script is registered for
 * new documents and executed into the tabs already open; each document's content script then asks
 * for the MAIN-world bridge, which only an allowed site's document gets. When the last link has
 * been down for SLEEP_AFTER_MS, the registration goes and every content script is told to end what
 * it runs, the bridge with it.
 */
export class PageInjection {
  readonly #up = new Set<AgentLink>();
  /** Since when no link is up (a worker just started knows of none); undefined while one is. */
  #downSince: number | undefined = Date.now();
  /** Put to sleep since the last link went down: nothing left to end. */
  #asleep = false;
  #sleepTimer: ReturnType<typeof setTimeout> | undefined;
  /** The registration and injection of the last wake, so a quick down-and-up does not race them. */
  #changing: Promise<void> = Promise.resolve();

  constructor(private readonly context: InjectionContext) {
    chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
      if (sender.id !== chrome.runtime.id || (raw as { type?: unknown } | null)?.type !== BRIDGE_REQUEST) return false;
      this.#bridgeFor(sender).then(
        (injected) => sendResponse({ injected }),
        (error: unknown) => {
          context.log('bridge.failed', { tabId: sender.tab?.id, error: errorMessage(error) });
          sendResponse({ injected: false });
        },
      );
      return true;
    });
  }

  get agentConnected(): boolean {
    return this.#up.size > 0;
  }

  /** A link to agents came up or went down. */
  linkState(link: AgentLink, up: boolean): void {
    const before = this.agentConnected;
    if (up) this.#up.add(link);
    else this.#up.delete(link);
    if (this.agentConnected === before) return;
    clearTimeout(this.#sleepTimer);
    if (this.agentConnected) {
      this.#downSince = undefined;
      this.#asleep = false;
      this.#change(() => this.#wake());
    } else {
      this.#downSince = Date.now();
      this.#sleepTimer = setTimeout(() => this.check(), SLEEP_AFTER_MS);
    }
  }

  /**
   * Puts the pages to sleep once no agent has been connected for SLEEP_AFTER_MS. Called by a timer
   * and by the worker's alarm: a worker stopped meanwhile loses its timer, and a worker just
   * started does not know what an earlier one left registered.
   */
  check(): void {
    if (this.#asleep || this.#downSince === undefined || Date.now() - this.#downSince < SLEEP_AFTER_MS) return;
    this.#asleep = true;
    this.#change(() => this.#sleep());
  }

  /** A site's decision changed: its open documents get the bridge, or lose it. */
  siteChanged(site: string, tabsOfSite: Array<{ tabId: number; url: string | undefined }>): void {
    if (!this.agentConnected) return;
    for (const { tabId, url } of tabsOfSite) {
      const target = { tabId, frameIds: [0] };
      const injection =
        this.context.siteAccess(url) === 'allowed'
          ? chrome.scripting.executeScript({ target, files: ['bridge.js'], world: 'MAIN', injectImmediately: true })
          : chrome.scripting.executeScript({ target, func: endBridge, args: [BRIDGE_SLEEP_EVENT] });
      injection.catch((error: unknown) =>
        this.context.log('bridge.failed', { tabId, site, error: errorMessage(error) }),
      );
    }
  }

  #change(step: () => Promise<void>): void {
    this.#changing = this.#changing.then(step).catch((error: unknown) => {
      this.context.log('inject.failed', { error: errorMessage(error) });
    });
  }

  async #wake(): Promise<void> {
    if (!this.agentConnected) return;
    const registered = await chrome.scripting.getRegisteredContentScripts({ ids: [CONTENT_SCRIPT_ID] });
    if (registered.length === 0) {
      await chrome.scripting.registerContentScripts([
        {
          id: CONTENT_SCRIPT_ID,
          js: ['content.js'],
          matches: ['<all_urls>'],
          // Every frame: a frame of another site is read and acted in by its own script, on its parent's
          // request (background/frames.ts); a sub-frame's script opens no Port and publishes nothing.
          allFrames: true,
          runAt: 'document_idle',
          persistAcrossSessions: false,
        },
      ]);
    }
    // Tabs opened before: their content script starts now (one already there and awake does not double up).
    await this.context.restored;
    const tabs = await chrome.tabs.query({});
    await Promise.all(
      tabs.map((tab) =>
        tab.id === undefined || !INJECTABLE.test(tab.url ?? '') || tab.discarded || this.context.connected(tab.id)
          ? undefined
          : chrome.scripting
              .executeScript({ target: { tabId: tab.id, allFrames: true }, files: ['content.js'] })
              .catch((error: unknown) =>
                this.context.log('inject.failed', { tabId: tab.id, error: errorMessage(error) }),
              ),
      ),
    );
  }

  async #sleep(): Promise<void> {
    if (this.agentConnected) return;
    await chrome.scripting.unregisterContentScripts({ ids: [CONTENT_SCRIPT_ID] }).catch(() => {});
    const tabs = await chrome.tabs.query({});
    await Promise.all(
      tabs.map((tab) =>
        tab.id === undefined || !INJECTABLE.test(tab.url ?? '')
          ? undefined
          : chrome.tabs.sendMessage(tab.id, { type: SLEEP_MESSAGE }).catch(() => {}),
      ),
    );
  }

  /** The bridge goes into the asking document, if it is a top frame of an allowed site and an agent is connected. */
  async #bridgeFor(sender: chrome.runtime.MessageSender): Promise<boolean> {
    const tabId = sender.tab?.id;
    if (tabId === undefined || sender.frameId !== 0 || !this.agentConnected) return false;
    await this.context.restored;
    if (this.context.siteAccess(sender.url) !== 'allowed') return false;
    // The document that asked, not one that replaced it meanwhile.
    const target = sender.documentId ? { tabId, documentIds: [sender.documentId] } : { tabId, frameIds: [0] };
    await chrome.scripting.executeScript({ target, files: ['bridge.js'], world: 'MAIN', injectImmediately: true });
    return true;
  }
}

/** Runs in the page's isolated world (the event name is passed in: an injected function carries none of this module): the MAIN-world bridge hears the event and takes itself out. */
function endBridge(eventName: string): void {
  document.dispatchEvent(new CustomEvent(eventName));
}
