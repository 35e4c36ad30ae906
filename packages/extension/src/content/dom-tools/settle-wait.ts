/** What decides when an action has settled (docs/dom-tools.md, "How an action settles"). */
export interface SettleInputs {
  /** True while timers or requests the action started are still to finish. */
  busy(): boolean;
  /** True once nothing more is worth waiting for: a navigation started, the page is unloading. */
  over(): boolean;
  /** Calls `changed` at each change of the action's own and each report on its follow-ups; returns how to stop. */
  subscribe(changed: () => void): () => void;
  /** The bound: answered by then whatever is still going on. */
  maxWaitMs: number;
  /** Runs a function after the tasks queued so far; returns how to cancel it. */
  afterQueuedTasks?: (run: () => void) => () => void;
}

/**
 * Resolves once the action's own changes stopped: a turn of the event loop passed with no change
 * of its own and no follow-up still running. Nothing here waits a fixed time: the only timer is
 * the bound. A change that the page makes on its own (a clock) is not passed in, so it holds nothing.
 */
export function waitForSettle(inputs: SettleInputs): Promise<void> {
  const hop = inputs.afterQueuedTasks ?? afterQueuedTasks;
  return new Promise((resolve) => {
    let finished = false;
    let changedSinceHop = false;
    let cancelHop: (() => void) | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(cap);
      cancelHop?.();
      unsubscribe();
      resolve();
    };
    const check = () => {
      cancelHop = undefined;
      if (inputs.over()) return finish();
      if (changedSinceHop) {
        // Whatever the change set going (a framework's next render) gets its turn first.
        changedSinceHop = false;
        cancelHop = hop(check);
        return;
      }
      // Still busy: the next report or change wakes this up again.
      if (!inputs.busy()) finish();
    };
    const unsubscribe = inputs.subscribe(() => {
      changedSinceHop = true;
      if (inputs.over()) finish();
      else cancelHop ??= hop(check);
    });
    const cap = setTimeout(finish, inputs.maxWaitMs);
    // A navigation the action began is known as it returns: answered before the page can go.
    if (inputs.over()) finish();
    else cancelHop = hop(check);
  });
}

/** A message to itself: it runs after the tasks already queued, and is not throttled in a hidden tab as frames are. */
export function afterQueuedTasks(run: () => void): () => void {
  const channel = new MessageChannel();
  let cancelled = false;
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (!cancelled) run();
  };
  channel.port2.postMessage(null);
  return () => {
    cancelled = true;
    channel.port1.close();
  };
}
