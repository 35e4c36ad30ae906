/** Largest message accepted on any link. Tool lists of ~1,000 tools with full schemas stay well below it. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Default local WebSocket port of the browser link. */
export const DEFAULT_BROWSER_LINK_PORT = 8765;

/** An MV3 worker stops 30 s after its last event; a message every 20 s keeps it alive. */
export const KEEPALIVE_INTERVAL_MS = 20_000;

/** Default wait for any request that crosses a process or context boundary. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
