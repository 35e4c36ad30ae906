import type { Hub } from '@tabmcp/hub';
import type { ExtensionToServer } from '@tabmcp/protocol';

/** A crashed renderer drops its content script's Port first; Chrome marks the tab a moment later. */
const CHECK_AFTER_MS = 300;

/**
 * docs/requirements.md, "Tab crashes: remove from tabs". Chrome fires no event when a tab's
 * renderer crashes: the tab stays, its status "unloaded" although it is not discarded. When a
 * tab's tools vanish, look, and report a crashed tab as closed; if the user reloads it, its
 * tabUpdated brings it back.
 */
export function reportCrashedTabs(hub: Hub, send: (message: ExtensionToServer) => void): void {
  hub.onToolsChanged((tabId, tools) => {
    if (tools.length > 0) return;
    setTimeout(() => {
      chrome.tabs.get(tabId).then(
        (tab) => {
          if (tab.status === 'unloaded' && !tab.discarded) send({ type: 'tabClosed', tabId });
        },
        () => {},
      );
    }, CHECK_AFTER_MS);
  });
}
