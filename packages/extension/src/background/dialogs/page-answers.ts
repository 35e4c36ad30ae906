import { withTimeout } from '@tabmcp/protocol';

/**
 * True when the tab's page runs a script within `timeoutMs`: false means its main thread is
 * blocked (a native dialog, or a script that never yields). Injected immediately: a page that has
 * not reached document_idle (still loading, or streaming its HTML) must answer too, or it would
 * pass for a blocked one. A page the extension may not script (the browser's own) counts as
 * answering: nothing is known of it.
 */
export async function pageAnswers(tabId: number, timeoutMs: number): Promise<boolean> {
  const probe = chrome.scripting
    .executeScript({ target: { tabId }, func: () => true, injectImmediately: true })
    .then(() => true)
    .catch(() => true);
  return withTimeout(probe, { timeoutMs, onTimeout: () => false });
}
