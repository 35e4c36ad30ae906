import { asCallToolResult, type CallToolResult } from '@tabmcp/protocol';
import { type ActivityWatch, watchActivity } from '../page-activity';
import { markedNavigating } from './dom-tool';

/**
 * The bound on waiting for what a call left running. A page's own tool that navigates often does it
 * just after answering (`setTimeout(() => location.assign(…))`): that timer is the call's, and its
 * answer waits for it to run, not for a fixed grace.
 */
const FOLLOW_UPS_MAX_WAIT_MS = 1_000;

/**
 * Runs a call of a page's own tool and marks its answer when the call started a navigation to
 * another document (the Navigation API's `navigate` event, seen in the MAIN world) or the page
 * unloaded meanwhile, so the background can say where the tab went. An answer waits only while
 * the timers and requests the call started are still to run (none, in the common case); a tool
 * marked read-only is not waited for at all.
 */
export async function markIfUnloading(call: () => Promise<unknown>, readOnly: boolean): Promise<unknown> {
  let unloading = false;
  let wake = () => {};
  // A `pagehide` the page dispatched itself is not its unloading.
  const onUnload = (event: Event) => {
    if (!event.isTrusted) return;
    unloading = true;
    wake();
  };
  window.addEventListener('pagehide', onUnload);
  const activity = watchActivity();
  try {
    const answer = await call();
    activity.close();
    if (!unloading && !readOnly) {
      await followUpsDone(activity, (waker) => {
        wake = waker;
      });
    }
    return unloading || activity.navigating() !== undefined
      ? markedNavigating(asCallToolResult(answer) as CallToolResult)
      : answer;
  } finally {
    activity.stop();
    window.removeEventListener('pagehide', onUnload);
  }
}

/** Resolves at once when nothing the call started is still running, else when it finished or navigated. */
function followUpsDone(activity: ActivityWatch, onUnload: (wake: () => void) => void): Promise<void> {
  const over = () => activity.pending() === 0 || activity.navigating() !== undefined;
  if (over()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(cap);
      stop();
      resolve();
    };
    const cap = setTimeout(finish, FOLLOW_UPS_MAX_WAIT_MS);
    const stop = activity.onReport(() => {
      if (over()) finish();
    });
    onUnload(finish);
  });
}
