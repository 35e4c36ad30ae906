/**
 * A reconnect delay spread over its upper half: after a proxy instance restarts, its agents come
 * back over a window instead of all in the same millisecond (issue 27 P10).
 */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs / 2 + (random() * delayMs) / 2);
}
