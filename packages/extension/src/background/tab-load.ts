import { ErrorCode, ProtocolError, waitUntil } from '@tabmcp/protocol';

export interface TabLoadOptions {
  timeoutMs: number;
  /** Only a load that starts after the wait began counts (navigating a tab that is already complete). */
  afterLoading: boolean;
  /** What causes the load; its failure rejects the wait. */
  start(): Promise<unknown>;
  /** Checked once `start` ran: true when the tab is already where it should be (it loaded before the events came, or a same-document navigation needed no load). */
  done(tab: chrome.tabs.Tab): boolean;
}

/** Resolves with the tab once it finished loading; rejects when it closes, fails to load or takes too long. */
export function waitForTabLoad(tabId: number, options: TabLoadOptions): Promise<chrome.tabs.Tab> {
  return watchLoad(() => options.start().then(() => tabId), options);
}

/**
 * Opens a tab with `open` and resolves with it once its page loaded; rejects at once with the
 * browser's own error when the load fails (net::ERR_NAME_NOT_RESOLVED, ERR_CONNECTION_REFUSED …).
 * The browser's events are heard from before the tab exists: a refused connection fails within
 * milliseconds, before `open` has even answered.
 */
export function openTabAndWaitForLoad(
  open: () => Promise<chrome.tabs.Tab | undefined>,
  timeoutMs: number,
): Promise<chrome.tabs.Tab> {
  return watchLoad(
    async () => {
      const tab = await open();
      if (tab?.id === undefined)
        throw new ProtocolError(ErrorCode.InternalError, 'The browser created a tab without an id');
      return tab.id;
    },
    { timeoutMs, afterLoading: false, done: (tab) => tab.status === 'complete' },
  );
}

type TabEvent =
  | { kind: 'loading' }
  | { kind: 'complete'; tab: chrome.tabs.Tab }
  | { kind: 'failed'; error: string; url: string }
  | { kind: 'closed' };

/** A navigation another one replaced, or a download: the tab stays where it was, which is no failure of its own. */
const ABORTED = 'net::ERR_ABORTED';

function watchLoad(
  start: () => Promise<number>,
  options: Pick<TabLoadOptions, 'timeoutMs' | 'afterLoading' | 'done'>,
): Promise<chrome.tabs.Tab> {
  let tabId: number | undefined;
  return waitUntil<chrome.tabs.Tab>(
    (done, fail) => {
      let sawLoading = false;
      /** Events of tabs not known yet: the tab `start` opens is known only once it answered. */
      const early: Array<{ id: number; event: TabEvent }> = [];
      const handle = (event: TabEvent) => {
        const id = tabId as number;
        if (event.kind === 'loading') sawLoading = true;
        else if (event.kind === 'complete' && (sawLoading || !options.afterLoading)) loadedWithoutError(event.tab);
        else if (event.kind === 'closed')
          fail(new ProtocolError(ErrorCode.TabNotFound, `Tab ${id} was closed while loading`));
        else if (event.kind === 'failed' && event.error === ABORTED) {
          // Done if nothing else is loading in the tab now; else the navigation that replaced it is awaited.
          void chrome.tabs.get(id).then(
            (tab) => tab.status === 'complete' && done(tab),
            () => {},
          );
        } else if (event.kind === 'failed') {
          fail(
            new ProtocolError(
              ErrorCode.ServerError,
              `${event.url.slice(0, 200)} did not load in tab ${id}: ${event.error}. Check the address and that the site is up; the tab shows the browser's error page.`,
            ),
          );
        }
      };
      // The browser's error page completes too: its load error (heard apart) is the answer.
      const loadedWithoutError = (tab: chrome.tabs.Tab) =>
        void chrome.webNavigation.getFrame({ tabId: tab.id ?? -1, frameId: 0 }).then(
          (frame) => frame?.errorOccurred || done(tab),
          () => done(tab),
        );
      const heard = (id: number, event: TabEvent) => {
        if (tabId === undefined) early.push({ id, event });
        else if (id === tabId) handle(event);
      };
      const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab) => {
        if (change.status === 'loading') heard(id, { kind: 'loading' });
        if (change.status === 'complete') heard(id, { kind: 'complete', tab });
      };
      const onRemoved = (id: number) => heard(id, { kind: 'closed' });
      const onError = (details: chrome.webNavigation.WebNavigationFramedErrorCallbackDetails) => {
        if (details.frameId === 0) heard(details.tabId, { kind: 'failed', error: details.error, url: details.url });
      };
      chrome.tabs.onUpdated.addListener(onUpdated);
      chrome.tabs.onRemoved.addListener(onRemoved);
      chrome.webNavigation.onErrorOccurred.addListener(onError);
      start().then(
        async (id) => {
          tabId = id;
          for (const { id: earlyId, event } of early.splice(0)) if (earlyId === id) handle(event);
          const now = await chrome.tabs.get(id).catch(() => undefined);
          if (now && !sawLoading && options.done(now)) loadedWithoutError(now);
        },
        (error: unknown) =>
          fail(
            error instanceof ProtocolError
              ? error
              : new ProtocolError(ErrorCode.ServerError, `Navigation failed in tab ${tabId}: ${error}`),
          ),
      );
      return () => {
        chrome.tabs.onUpdated.removeListener(onUpdated);
        chrome.tabs.onRemoved.removeListener(onRemoved);
        chrome.webNavigation.onErrorOccurred.removeListener(onError);
      };
    },
    {
      timeoutMs: options.timeoutMs,
      onTimeout: () => {
        throw new ProtocolError(
          ErrorCode.RequestTimeout,
          `Tab ${tabId} did not finish loading within ${options.timeoutMs} ms`,
        );
      },
    },
  );
}
