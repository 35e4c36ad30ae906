import { ACTIVITY_CLOSE, ACTIVITY_OPEN, ACTIVITY_REPORT, type ActivityReport } from '../bridge/activity-events';

/**
 * One watch over what an action or a page tool call starts, as the MAIN world sees it
 * (bridge/page-activity.ts): the timers and requests still to finish, and a navigation to another
 * document. Opened before the work runs; `close` once its own code ran, after which only what it
 * already started counts.
 */
export interface ActivityWatch {
  /** Stops counting new work as this watch's. */
  close(): void;
  /** Timers and requests of the watch not finished yet (0 when the MAIN world is not in this page). */
  pending(): number;
  /** Where a navigation the watch started is going, if one started. */
  navigating(): string | undefined;
  /** Calls `listener` at each report (a follow-up finished, a navigation started); returns how to stop. */
  onReport(listener: () => void): () => void;
  stop(): void;
}

let watchCount = 0;

export function watchActivity(): ActivityWatch {
  const id = `${++watchCount}-${Math.random().toString(36).slice(2)}`;
  let latest: ActivityReport = { id, pending: 0, navigating: null };
  const listeners = new Set<() => void>();
  const onReport = (event: Event) => {
    const report = parseReport((event as CustomEvent<unknown>).detail);
    if (report?.id !== id) return;
    latest = report;
    for (const listener of listeners) listener();
  };
  document.addEventListener(ACTIVITY_REPORT, onReport);
  // A new watch has nothing pending (so too on a page where the MAIN world's script could not run); the MAIN
  // world reports at close, when the count falls to 0 and when a navigation begins.
  document.dispatchEvent(new CustomEvent(ACTIVITY_OPEN, { detail: id }));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    document.dispatchEvent(new CustomEvent(ACTIVITY_CLOSE, { detail: id }));
  };
  return {
    close,
    pending: () => latest.pending,
    navigating: () => latest.navigating ?? undefined,
    onReport(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      close();
      listeners.clear();
      document.removeEventListener(ACTIVITY_REPORT, onReport);
    },
  };
}

function parseReport(detail: unknown): ActivityReport | undefined {
  if (typeof detail !== 'string') return undefined;
  try {
    const value = JSON.parse(detail) as Partial<ActivityReport> | null;
    return typeof value?.id === 'string' && typeof value.pending === 'number'
      ? {
          id: value.id,
          pending: value.pending,
          navigating: typeof value.navigating === 'string' ? value.navigating : null,
        }
      : undefined;
  } catch {
    return undefined;
  }
}
