import { rateLimited } from './rate-limit';

/** docs/requirements.md#hub: updates debounced by 500 ms, and a poll every 60 s for pages that never say. */
const UPDATE_DEBOUNCE_MS = 500;
const POLL_INTERVAL_MS = 60_000;

/**
 * When a tab's tool list is read again: on the page's list_changed, rate-limited (the first at
 * once, the rest of a burst folded into one per 500 ms), and every 60 s for pages that change
 * their tools without a word. What is read is sent only if it differs (SentToolList).
 */
export function toolUpdates(readAndSend: () => void, now?: () => number) {
  const updates = rateLimited(readAndSend, UPDATE_DEBOUNCE_MS, now);
  const poll = setInterval(() => updates.schedule(), POLL_INTERVAL_MS);
  return {
    changed: () => updates.schedule(),
    stop(): void {
      clearInterval(poll);
      updates.cancel();
    },
  };
}

/** The last tool list sent to the hub, so a poll that finds nothing new sends nothing. */
export class SentToolList {
  #last = '';

  /** Remembers `tools` as sent; true if they differ from the list sent before. */
  record(tools: unknown): boolean {
    const signature = JSON.stringify(tools);
    const differs = signature !== this.#last;
    this.#last = signature;
    return differs;
  }
}
