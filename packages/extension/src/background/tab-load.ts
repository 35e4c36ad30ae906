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

/** Resolves with the tab once it finished loading; rejects when it closes, fails to start or takes too long. */
export function waitForTabLoad(tabId: number, options: TabLoadOptions): Promise<chrome.tabs.Tab> {
  return waitUntil<chrome.tabs.Tab>(
    (done, fail) => {
      let sawLoading = false;
      const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab) => {
        if (id !== tabId) return;
        if (change.status === 'loading') sawLoading = true;
        if (change.status === 'complete' && (sawLoading || !options.afterLoading)) done(tab);
      };
      const onRemoved = (id: number) => {
        if (id === tabId) fail(new ProtocolError(ErrorCode.TabNotFound, `Tab ${tabId} was closed while loading`));
      };
      chrome.tabs.onUpdated.addListener(onUpdated);
      chrome.tabs.onRemoved.addListener(onRemoved);
      options.start().then(
        async () => {
          const now = await chrome.tabs.get(tabId).catch(() => undefined);
          if (now && !sawLoading && options.done(now)) done(now);
        },
        (error: unknown) =>
          fail(new ProtocolError(ErrorCode.ServerError, `Navigation failed in tab ${tabId}: ${error}`)),
      );
      return () => {
        chrome.tabs.onUpdated.removeListener(onUpdated);
        chrome.tabs.onRemoved.removeListener(onRemoved);
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
