import { DIALOG_EVENT } from '../bridge/channel';

/**
 * Passes the bridge's dialog announcements (bridge/dialog-announce.ts) to the background. The
 * message must leave now: once the page's dialog is up, this world is blocked with it.
 */
export function relayDialogs(): () => void {
  const relay = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'string' || detail.length > 10_000) return;
    let announced: unknown;
    try {
      announced = JSON.parse(detail);
    } catch {
      return;
    }
    // The background checks the shape: this only forwards.
    chrome.runtime.sendMessage({ type: 'tabmcp/dialog', announced }).catch(() => {});
  };
  window.addEventListener(DIALOG_EVENT, relay);
  return () => window.removeEventListener(DIALOG_EVENT, relay);
}
