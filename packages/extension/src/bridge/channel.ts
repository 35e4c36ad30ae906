/** The private postMessage channel on which the MAIN-world bridge serves what it finds on the page. */
export const BRIDGE_CHANNEL = 'tabmcp-bridge';

/** Key in the bridge's initialize `_meta` naming where its tools come from (a `ToolSource`). */
export const SOURCE_META_KEY = 'tabmcp/source';
