import type { LogDetails } from '@tabmcp/protocol';

/**
 * Events the hub logs on every tool call. A console call in the extension's service worker is not
 * free (Chromium hands it on for DevTools and the extension error console): logging each call cost
 * about 0.2 ms of the call's round trip on the bench machine (bench/tools-call.ts). The hub's audit
 * log, shown in the popup, already records every call.
 */
const PER_CALL_EVENTS = new Set(['call']);

/** The worker's log: everything but the per-call events, at debug level. */
export function workerLog(event: string, details: LogDetails = {}): void {
  if (PER_CALL_EVENTS.has(event)) return;
  console.debug('[tabmcp]', event, details);
}
