import { withTimeout } from '@tabmcp/protocol';

/**
 * True when the tab's page runs a script within `timeoutMs`: false means its main thread is
 * blocked (a native dialog, or a script that never yields). A page the extension may not script
 * (the browser's own) counts as answering: nothing is known of it.
 */
export async function pageAnswers(tabId: number, timeoutMs: number): Promise<boolean> {
  const probe = chrome.scripting
    .executeScript({ target: { tabId }, func: () => true })
    .then(() => true)
    .catch(() => true);
  return withTimeout(probe, { timeoutMs, onTimeout: () => false });
}
