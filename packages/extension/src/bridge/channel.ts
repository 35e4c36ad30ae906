/** The private postMessage channel on which the MAIN-world bridge serves what it finds on the page. */
export const BRIDGE_CHANNEL = 'tabmcp-bridge';

/** Key in the bridge's initialize `_meta` naming where its tools come from (a `ToolSource`). */
export const SOURCE_META_KEY = 'tabmcp/source';

/** The DOM event by which the MAIN-world bridge announces a native dialog (bridge/dialog-announce.ts). */
export const DIALOG_EVENT = 'tabmcp-dialog';

/**
 * The DOM event by which the content script asks the MAIN-world bridge to look for the page's
 * tools now, before it asks who serves them (the bridge otherwise looks every 100 ms for a while):
 * a page whose `window.mcp` exists by then is served at once. It reaches the MAIN world
 * synchronously; a page that dispatches it only makes the bridge look early.
 */
export const LOOK_NOW_EVENT = 'tabmcp-look-now';

/**
 * The bridge keeps no global to say it is in the page: a second copy (injected again after the
 * agent reconnected) dispatches this cancelable event, and a running bridge cancels it. A page that
 * cancels it keeps the bridge out of itself, and nothing else.
 */
export const BRIDGE_PRESENT_EVENT = 'tabmcp-bridge-present';

/** The content script going to sleep (no agent connected): the bridge takes every hook off and ends. */
export const BRIDGE_SLEEP_EVENT = 'tabmcp-bridge-sleep';
