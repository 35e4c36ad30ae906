import type { Hub } from '@tabmcp/hub';
import { PAGE_LOAD_BUDGET_MS, SETTLE_LOAD, SettleLoadResult, validate } from '@tabmcp/protocol';
import type { TabRequests } from './tab-requests';

/** How long past its load event a page may take to be ready before the answer goes anyway, saying so. */
export const READY_CAP_MS = 3_000;
/** How long the DOM must go without a change to be quiet (a framework's render comes in bursts well within it). */
const DOM_QUIET_MS = 150;
/** The margin on the tab's own bound, for its answer to travel back. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * Waits until a loaded page is ready as the browser reports it (docs/dom-tools.md, "When open_tab
 * answers"): no request of the tab that holds it in flight, then the DOM quiet for DOM_QUIET_MS,
 * and again while the quiet DOM's wait saw the tab begin new requests (RequireJS loads its modules
 * after the load event, one module's code asking for the next). The tab derives its tools again
 * and publishes them before it answers, so the hub has the list of the ready page when this
 * resolves. Bounded by `deadline`; returns what still held the page then, or undefined if it was ready.
 */
export async function waitForPageReady(
  hub: Hub,
  tabId: number,
  requests: TabRequests,
  { loadedAt, deadline }: { loadedAt: number; deadline: number },
): Promise<string | undefined> {
  for (;;) {
    const networkQuiet = await requests.quiet(tabId, deadline);
    const asked = Date.now();
    const left = Math.max(0, deadline - asked);
    let domQuiet: boolean;
    try {
      const raw = await hub.pageRequest(
        tabId,
        SETTLE_LOAD,
        {
          quietMs: DOM_QUIET_MS,
          maxWaitMs: left,
          networkAgoMs: networkAgo(requests.lastActivity(tabId), loadedAt, asked),
          requestsAgoMs: requestsAgo(requests.lastRequest(tabId), asked),
        },
        left + ANSWER_MARGIN_MS,
      );
      const answer = validate(SettleLoadResult, raw, 'settleLoad answer');
      domQuiet = answer.ok && answer.value.quiet;
    } catch {
      // The page went away or was replaced meanwhile: its readiness is no longer this answer's to wait for.
      return undefined;
    }
    const startedMeanwhile = requests.startedSince(tabId, asked) > 0;
    if (networkQuiet && domQuiet && !startedMeanwhile) return undefined;
    if (Date.now() >= deadline)
      return requests.holding(tabId) ?? (domQuiet ? undefined : 'the page was still changing');
  }
}

/**
 * How long ago the tab's requests were last busy, for the DOM's quiet window. What ended before the
 * load event was done before it: only later requests count (a finite number for the wire: none
 * since the load counts as long ago).
 */
function networkAgo(lastActivity: number, loadedAt: number, now: number): number {
  return lastActivity >= loadedAt ? now - lastActivity : READY_CAP_MS;
}

/**
 * How long ago the tab's requests last began or ended, any kind, for whether its derivation still
 * stands (a finite number for the wire): none heard counts as longer ago than a load and its
 * readiness can take, so as before the document began.
 */
function requestsAgo(lastRequest: number, now: number): number {
  return Math.min(now - lastRequest, PAGE_LOAD_BUDGET_MS + READY_CAP_MS);
}
