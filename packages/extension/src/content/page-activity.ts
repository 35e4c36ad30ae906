import {
  ACTIVITY_CLOSE,
  ACTIVITY_DROP,
  ACTIVITY_OPEN,
  ACTIVITY_REPORT,
  type ActivityReport,
  DOCUMENT_SCHEMES,
} from '../bridge/activity-events';

/**
 * One watch over what an action or a page tool call starts: the timers and requests still to
 * finish, as the MAIN world counts them (bridge/page-activity.ts, on allowed sites only), and a
 * navigation to another document, as the browser itself announces it. Opened before the work runs;
 * `close` once its own code ran, after which only what it already started counts.
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

interface NavigateEventLike extends Event {
  destination: { url: string; sameDocument: boolean };
  hashChange: boolean;
  downloadRequest: string | null;
}

interface NavigationLike extends EventTarget {
  transition: unknown;
}

/** The content script's side of a watch: what the navigation listener may set. */
interface LiveWatch {
  open: boolean;
  pending: number;
  navigating: string | undefined;
  tell(): void;
}

const live = new Set<LiveWatch>();
let watchCount = 0;
let hearing = false;

/**
 * The browser's own `navigate` event (the Navigation API), heard in this isolated world: the page
 * can dispatch an event of that name, but not a trusted one, and it never sees which watch is open.
 * A cross-document navigation while a watch is open, or while what it started is still running
 * (`await fetch(…)`, then `location.assign(…)`), is that watch's. Added once, at the first watch.
 */
function hearNavigations(): void {
  if (hearing) return;
  hearing = true;
  const navigation = (window as { navigation?: NavigationLike }).navigation;
  navigation?.addEventListener('navigate', (event) => {
    if (!event.isTrusted) return;
    const watches = [...live];
    const watch = watches.filter((candidate) => candidate.open).at(-1) ?? watches.filter((w) => w.pending > 0).at(-1);
    if (!watch) return;
    const { destination, hashChange, downloadRequest } = event as NavigateEventLike;
    if (destination.sameDocument || hashChange || downloadRequest !== null) return;
    if (!DOCUMENT_SCHEMES.has(new URL(destination.url).protocol)) return;
    // Listeners after this one may cancel it or intercept it (a same-document change): look once they ran.
    queueMicrotask(() => {
      if (event.defaultPrevented || navigation.transition) return;
      watch.navigating = destination.url;
      watch.tell();
    });
  });
}

export function watchActivity(): ActivityWatch {
  hearNavigations();
  const id = `${++watchCount}-${Math.random().toString(36).slice(2)}`;
  const listeners = new Set<() => void>();
  const watch: LiveWatch = {
    open: true,
    pending: 0,
    navigating: undefined,
    tell: () => {
      for (const listener of listeners) listener();
    },
  };
  live.add(watch);
  const onReport = (event: Event) => {
    const report = parseReport((event as CustomEvent<unknown>).detail);
    if (report?.id !== id) return;
    watch.pending = report.pending;
    watch.tell();
  };
  document.addEventListener(ACTIVITY_REPORT, onReport);
  // A new watch has nothing pending (so too on a page where the MAIN world's script does not run);
  // the MAIN world reports at close and when the count falls to 0.
  document.dispatchEvent(new CustomEvent(ACTIVITY_OPEN, { detail: id }));
  const close = () => {
    if (!watch.open) return;
    watch.open = false;
    document.dispatchEvent(new CustomEvent(ACTIVITY_CLOSE, { detail: id }));
  };
  return {
    close,
    pending: () => watch.pending,
    navigating: () => watch.navigating,
    onReport(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      close();
      listeners.clear();
      live.delete(watch);
      document.removeEventListener(ACTIVITY_REPORT, onReport);
      document.dispatchEvent(new CustomEvent(ACTIVITY_DROP, { detail: id }));
    },
  };
}

function parseReport(detail: unknown): ActivityReport | undefined {
  if (typeof detail !== 'string' || detail.length > 1_000) return undefined;
  try {
    const value = JSON.parse(detail) as Partial<ActivityReport> | null;
    return typeof value?.id === 'string' && typeof value.pending === 'number' && Number.isFinite(value.pending)
      ? { id: value.id, pending: Math.max(0, value.pending) }
      : undefined;
  } catch {
    return undefined;
  }
}
