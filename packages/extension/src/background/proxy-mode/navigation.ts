import { ErrorCode, ProtocolError } from '@tabmcp/protocol';

const LOAD_TIMEOUT_MS = 30_000;

/**
 * Starts a navigation of a tab and resolves with the tab once it finished loading. A same-document
 * navigation (a history entry of a single-page app) never reloads; it counts as done once the URL
 * changed and the tab is complete.
 */
export async function navigateAndWait(tabId: number, start: () => Promise<unknown>): Promise<chrome.tabs.Tab> {
  const before = await getTab(tabId);
  return new Promise<chrome.tabs.Tab>((resolve, reject) => {
    let sawLoading = false;
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      outcome();
    };
    const onUpdated = (id: number, change: chrome.tabs.OnUpdatedInfo, tab: chrome.tabs.Tab) => {
      if (id !== tabId) return;
      if (change.status === 'loading') sawLoading = true;
      if (change.status === 'complete' && sawLoading) finish(() => resolve(tab));
    };
    const onRemoved = (id: number) => {
      if (id === tabId) finish(() => reject(new ProtocolError(ErrorCode.TabNotFound, `Tab ${tabId} was closed`)));
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ProtocolError(ErrorCode.RequestTimeout, `Tab ${tabId} did not finish loading in ${LOAD_TIMEOUT_MS} ms`),
          ),
        ),
      LOAD_TIMEOUT_MS,
    );
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
    start().then(
      async () => {
        const now = await chrome.tabs.get(tabId).catch(() => undefined);
        if (now && !sawLoading && now.status === 'complete' && now.url !== before.url) finish(() => resolve(now));
      },
      (error: unknown) =>
        finish(() => reject(new ProtocolError(ErrorCode.ServerError, `Navigation failed in tab ${tabId}: ${error}`))),
    );
  });
}

export async function getTab(tabId: number): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.get(tabId);
  } catch {
    throw new ProtocolError(ErrorCode.TabNotFound, `No tab with id ${tabId}: call getTabs to see the open tabs.`);
  }
}
