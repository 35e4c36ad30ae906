/**
 * The DOM events by which the content script asks the MAIN world what an action or a call started
 * (bridge/page-activity.ts). Both worlds share the document, and an event dispatched on it reaches
 * the other world's listeners synchronously; `detail` is a string so it crosses worlds as is.
 * The page can see and dispatch these too: the worst it can do is hold its own answers up to their
 * bound. Nothing else comes this way: whether a call navigated is heard from the browser itself
 * (content/page-activity.ts), never from the page's world.
 */
export const ACTIVITY_OPEN = 'tabmcp-activity-open';
export const ACTIVITY_CLOSE = 'tabmcp-activity-close';
/** The content script no longer listens for this watch: the MAIN world forgets it. */
export const ACTIVITY_DROP = 'tabmcp-activity-drop';
export const ACTIVITY_REPORT = 'tabmcp-activity-report';

/** What the MAIN world reports about one watch, as JSON in ACTIVITY_REPORT's detail. */
export interface ActivityReport {
  id: string;
  /** Timers and requests the watched work started that have not finished. */
  pending: number;
}

/** Schemes whose navigation replaces the document; mailto:, tel:, javascript: and the like do not. */
export const DOCUMENT_SCHEMES = new Set(['http:', 'https:', 'file:', 'data:', 'blob:', 'about:']);
