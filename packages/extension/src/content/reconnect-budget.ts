/**
 * How often the tab's Port may drop and connect again. The worker stops whenever Chromium idles it,
 * so a quiet tab's Port drops every few minutes for as long as the tab is open: only drops in quick
 * succession (a background that refuses the Port) use up the budget; a Port that stayed up for
 * `healthyMs` earns it back.
 */
export function reconnectBudget(limit: number, healthyMs: number, now: () => number = () => performance.now()) {
  let used = 0;
  let connectedAt = Number.NEGATIVE_INFINITY;
  return {
    connected(): void {
      connectedAt = now();
    },
    /** The background answered: the Port works. */
    healthy(): void {
      used = 0;
    },
    /** After a drop: whether to connect again. */
    retry(): boolean {
      if (now() - connectedAt >= healthyMs) used = 0;
      if (used >= limit) return false;
      used += 1;
      return true;
    },
  };
}
