import {
  ACTIVITY_CLOSE,
  ACTIVITY_OPEN,
  ACTIVITY_REPORT,
  type ActivityReport,
  DOCUMENT_SCHEMES,
} from './activity-events';

/**
 * What an action or a page tool call set going, seen from the MAIN world where the page's own
 * code runs (docs/dom-tools.md, "How an action settles"): the short timers and the fetch/XHR
 * requests it started (and, a few steps deep, those they started in turn), and a cross-document
 * navigation it began (the Navigation API's `navigate` event). The content script opens a watch
 * around its work; each watch is told when its follow-ups are done or when a navigation starts.
 * Timers longer than FOLLOW_UP_MAX_DELAY_MS (a toast that hides itself later, a poll) are not
 * waited for, and neither is anything that was already running before the watch opened (a clock).
 */
const FOLLOW_UP_MAX_DELAY_MS = 500;
/** A follow-up that schedules another counts, up to this many steps (a poll that re-arms itself does not hold an answer). */
const MAX_DEPTH = 3;

interface Watch {
  id: string;
  open: boolean;
  pending: number;
  navigating: string | null;
}

/** The work a piece of code belongs to: which watch, and how many steps from the action. */
interface Owner {
  watch: Watch;
  depth: number;
}

interface NavigateEventLike extends Event {
  destination: { url: string; sameDocument: boolean };
  hashChange: boolean;
  downloadRequest: string | null;
}

interface NavigationLike extends EventTarget {
  transition: unknown;
}

export function watchPageActivity(): void {
  const nativeSetTimeout = window.setTimeout.bind(window);
  const watches = new Map<string, Watch>();
  /** The owner of the code running now: set while a tracked callback runs. */
  let running: Owner | undefined;
  const newest = (): Watch | undefined => [...watches.values()].filter((watch) => watch.open).at(-1);
  const currentOwner = (): Owner | undefined => {
    if (running) return running.depth < MAX_DEPTH ? { watch: running.watch, depth: running.depth + 1 } : undefined;
    const watch = newest();
    return watch ? { watch, depth: 0 } : undefined;
  };
  const report = (watch: Watch) => {
    const detail: ActivityReport = { id: watch.id, pending: watch.pending, navigating: watch.navigating };
    document.dispatchEvent(new CustomEvent(ACTIVITY_REPORT, { detail: JSON.stringify(detail) }));
  };
  /** Counts one follow-up of `owner`; the returned function, called once, says it is done. */
  const begin = (owner: Owner): (() => void) => {
    owner.watch.pending++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      owner.watch.pending--;
      if (owner.watch.pending > 0) return;
      report(owner.watch);
      if (!owner.watch.open) watches.delete(owner.watch.id);
    };
  };
  const runAs = <T>(owner: Owner, run: () => T): T => {
    const outer = running;
    running = owner;
    try {
      return run();
    } finally {
      running = outer;
    }
  };

  document.addEventListener(ACTIVITY_OPEN, (event) => {
    const id = String((event as CustomEvent<unknown>).detail);
    // Not reported: a new watch has nothing pending and no navigation, as the content script assumes.
    watches.set(id, { id, open: true, pending: 0, navigating: null });
  });
  document.addEventListener(ACTIVITY_CLOSE, (event) => {
    const id = String((event as CustomEvent<unknown>).detail);
    const watch = watches.get(id);
    if (!watch) return;
    // Its follow-ups are still reported; nothing that starts from now on is its own.
    watch.open = false;
    // Reported only here and when its count falls to 0: the content script knows what is left.
    report(watch);
    if (watch.pending === 0) watches.delete(id);
  });

  trackRequests(currentOwner, begin, nativeSetTimeout);
  trackTimers(currentOwner, begin, runAs, nativeSetTimeout);

  const navigation = (window as { navigation?: NavigationLike }).navigation;
  navigation?.addEventListener('navigate', (event) => {
    // A navigation while a request of the watch is out is its continuation (`await fetch(…)`, then `location.assign(…)`).
    const watch =
      running?.watch ?? newest() ?? [...watches.values()].filter((candidate) => candidate.pending > 0).at(-1);
    if (!watch) return;
    const { destination, hashChange, downloadRequest } = event as NavigateEventLike;
    if (destination.sameDocument || hashChange || downloadRequest !== null) return;
    if (!DOCUMENT_SCHEMES.has(new URL(destination.url).protocol)) return;
    // Listeners after this one may cancel it or intercept it (a same-document change): look once they ran.
    queueMicrotask(() => {
      if (event.defaultPrevented || navigation.transition) return;
      watch.navigating = destination.url;
      report(watch);
    });
  });
}

type Begin = (owner: Owner) => () => void;

function trackTimers(
  currentOwner: () => Owner | undefined,
  begin: Begin,
  runAs: <T>(owner: Owner, run: () => T) => T,
  nativeSetTimeout: typeof window.setTimeout,
): void {
  const nativeClearTimeout = window.clearTimeout.bind(window);
  const tracked = new Map<number, () => void>();
  window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
    const owner = currentOwner();
    if (!owner || typeof handler !== 'function' || Number(delay ?? 0) > FOLLOW_UP_MAX_DELAY_MS)
      return nativeSetTimeout(handler, delay, ...args);
    const end = begin(owner);
    const id = nativeSetTimeout(() => {
      tracked.delete(id);
      try {
        runAs(owner, () => handler(...args));
      } finally {
        // After the check of a navigation this callback began (a microtask queued before this one).
        queueMicrotask(end);
      }
    }, delay);
    tracked.set(id, end);
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) {
      tracked.get(id)?.();
      tracked.delete(id);
    }
    nativeClearTimeout(id);
  }) as typeof window.clearTimeout;
}

/**
 * A request is done once its answer was handed to the page and the page's own continuation ran
 * (one task later): `await fetch(…)` then `location.assign(…)` still belongs to the action.
 */
function trackRequests(
  currentOwner: () => Owner | undefined,
  begin: Begin,
  nativeSetTimeout: typeof window.setTimeout,
): void {
  const later = (end: () => void) => () => void nativeSetTimeout(end, 0);
  const nativeFetch = window.fetch;
  window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
    const answer = nativeFetch.apply(this, args);
    const owner = currentOwner();
    if (owner) {
      const end = begin(owner);
      answer.then(later(end), later(end));
    }
    return answer;
  } as typeof fetch;
  const nativeSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const owner = currentOwner();
    if (owner) this.addEventListener('loadend', later(begin(owner)), { once: true });
    nativeSend.call(this, body);
  };
}
