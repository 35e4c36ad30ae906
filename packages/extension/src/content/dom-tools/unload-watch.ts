import { asCallToolResult, type CallToolResult } from '@tabmcp/protocol';
import { markedNavigating } from './dom-tool';

/**
 * A page's own tool that navigates often does it just after answering (`setTimeout(() =>
 * location.assign(…))`): the answer of a tool that may act waits this long for the page to start
 * unloading. Tools marked read-only are answered at once.
 */
const UNLOAD_GRACE_MS = 200;

/**
 * Runs a call of a page's own tool and marks its answer when the page starts unloading during the
 * call or, unless `readOnly`, within a moment after it, so the agent is told where the tab went.
 */
export async function markIfUnloading(call: () => Promise<unknown>, readOnly: boolean): Promise<unknown> {
  let unloading = false;
  let wake = () => {};
  const onUnload = (event: Event) => {
    // A page can dispatch a fake beforeunload of its own; only the browser's counts.
    if (!event.isTrusted) return;
    unloading = true;
    wake();
  };
  window.addEventListener('beforeunload', onUnload);
  window.addEventListener('pagehide', onUnload);
  try {
    const answer = await call();
    if (!unloading && !readOnly) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, UNLOAD_GRACE_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return unloading ? markedNavigating(asCallToolResult(answer) as CallToolResult) : answer;
  } finally {
    window.removeEventListener('beforeunload', onUnload);
    window.removeEventListener('pagehide', onUnload);
  }
}
