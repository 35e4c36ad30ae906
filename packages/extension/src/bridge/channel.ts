/** The private postMessage channel on which the MAIN-world bridge serves what it finds on the page. */
export const BRIDGE_CHANNEL = 'tabmcp-bridge';

/** Key in the bridge's initialize `_meta` naming where its tools come from (a `ToolSource`). */
export const SOURCE_META_KEY = 'tabmcp/source';

/** The DOM event by which the MAIN-world bridge announces a native dialog (bridge/dialog-announce.ts). */
export const DIALOG_EVENT = 'tabmcp-dialog';
