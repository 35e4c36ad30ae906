/** What a log line carries besides its event name; the sink may drop or redact fields. */
export type LogDetails = Record<string, unknown>;

/**
 * The one log shape of every package: an event name and its details, one structured line each. The sink decides
 * where lines go (JSON on stderr in the server and the proxy, the console in the extension's worker).
 */
export type Logger = (event: string, details?: LogDetails) => void;
