/**
 * The DOM events by which the content script asks the MAIN world what an action or a call started
 * (bridge/page-activity.ts). Both worlds share the document, and an event dispatched on it reaches
 * the other world's listeners synchronously; `detail` is a string so it crosses worlds as is.
 * The page can dispatch these too: the worst it can do is hold its own answers up to their bound,
 * or mark them as navigating, which the background checks against the browser's own events.
 */
export const ACTIVITY_OPEN = 'tabmcp-activity-open';
export const ACTIVITY_CLOSE = 'tabmcp-activity-close';
export const ACTIVITY_REPORT = 'tabmcp-activity-report';

/** What the MAIN world reports about one watch, as JSON in ACTIVITY_REPORT's detail. */
export interface ActivityReport {
  id: string;
  /** Timers and requests the watched work started that have not finished. */
  pending: number;
  /** The URL of a cross-document navigation the watched work started. */
  navigating: string | null;
}

/** Schemes whose navigation replaces the document; mailto:, tel:, javascript: and the like do not. */
export const DOCUMENT_SCHEMES = new Set(['http:', 'https:', 'file:', 'data:', 'blob:', 'about:']);
