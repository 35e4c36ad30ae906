/** Largest message accepted on any link. Tool lists of ~1,000 tools with full schemas stay well below it. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Default local WebSocket port of the browser link. */
export const DEFAULT_BROWSER_LINK_PORT = 8765;

/** An MV3 worker stops 30 s after its last event; a message every 20 s keeps it alive. */
export const KEEPALIVE_INTERVAL_MS = 20_000;

/** Default wait for any request that crosses a process or context boundary. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** What one tab may offer: tools beyond these are refused with a reason (audit log), never silently. */
export const MAX_TOOLS_PER_TAB = 2_000;
/**
 * A tab's tools in UTF-8 bytes once serialised. Far below a local link frame, and below the remote
 * proxy's 1 MiB frame (the extension answers it with at most 1,000,000 bytes) with room for the
 * envelope, so a full tab still lists through listPageTools in proxy mode.
 */
export const MAX_TAB_TOOL_BYTES = 768 * 1024;
/** Longest error text passed on from a page; longer ones are cut, not dropped. */
export const MAX_ERROR_TEXT = 16_384;
/** Longest tool description once the hub or server has put its origin marker in front. */
export const MAX_DESCRIPTION_LENGTH = 16_384;
