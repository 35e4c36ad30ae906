import { ACTIVITY_CLOSE, ACTIVITY_DROP, ACTIVITY_OPEN, ACTIVITY_REPORT, type ActivityReport } from './activity-events';
import { hook } from './cloak';

/**
 * What an action or a page tool call set going, seen from the MAIN world where the page's own
 * code runs (docs/dom-tools.md, "How an action settles"): the short timers and the fetch/XHR
 * requests it started (and, a few steps deep, those they started in turn). The content script opens
 * a watch around its work; each watch is told when its follow-ups are done. Timers longer than
 * FOLLOW_UP_MAX_DELAY_MS (a toast that hides itself later, a poll) are not waited for, and neither
 * is anything that was already running before the watch opened (a clock).
 *
 * The hooks are on only while a watch is open or has follow-ups to finish (docs/security.md, "What
 * runs in a page"): between calls the page's functions are the browser's own. Navigations are not
 * told from here: the page could fake that report, so the content script hears the browser's own
 * `navigate` event (content/page-activity.ts) and the background checks it against webNavigation.
 */
const FOLLOW_UP_MAX_DELAY_MS = 500;
/** A follow-up that schedules another counts, up to this many steps (a poll that re-arms itself does not hold an answer). */
const MAX_DEPTH = 3;
/** A watch the content script never closed or dropped (its document went on without it) ends by then. */
const WATCH_MAX_MS = 15_000;

interface Watch {
  id: string;
  open: boolean;
  pending: number;
}

/** The work a piece of code belongs to: which watch, and how many steps from the action. */
interface Owner {
  watch: Watch;
  depth: number;
}

type Begin = (owner: Owner) => () => void;
type RunAs = <T>(owner: Owner, run: () => T) => T;
type Unhook = () => void;

/** Listens for watches; returns how to stop listening (the hooks come off with the last watch). */
export function watchPageActivity(nativeSetTimeout: typeof window.setTimeout): () => void {
  const watches = new Map<string, Watch>();
  let unhooks: Unhook[] = [];
  /** The owner of the code running now: set while a tracked callback runs. */
  let running: Owner | undefined;
  const newest = (): Watch | undefined => [...watches.values()].filter((watch) => watch.open).at(-1);
  const currentOwner = (): Owner | undefined => {
    if (running) return running.depth < MAX_DEPTH ? { watch: running.watch, depth: running.depth + 1 } : undefined;
    const watch = newest();
    return watch ? { watch, depth: 0 } : undefined;
  };
  const report = (watch: Watch) => {
    const detail: ActivityReport = { id: watch.id, pending: watch.pending };
    document.dispatchEvent(new CustomEvent(ACTIVITY_REPORT, { detail: JSON.stringify(detail) }));
  };
  const forget = (id: string) => {
    watches.delete(id);
    if (watches.size > 0) return;
    for (const unhook of unhooks) unhook();
    unhooks = [];
  };
  /** Counts one follow-up of `owner`; the returned function, called once, says it is done. */
  const begin: Begin = (owner) => {
    owner.watch.pending++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      owner.watch.pending--;
      if (owner.watch.pending > 0) return;
      report(owner.watch);
      if (!owner.watch.open) forget(owner.watch.id);
    };
  };
  const runAs: RunAs = (owner, run) => {
    const outer = running;
    running = owner;
    try {
      return run();
    } finally {
      running = outer;
    }
  };

  const onOpen = (event: Event) => {
    const id = String((event as CustomEvent<unknown>).detail).slice(0, 100);
    if (watches.size === 0)
      unhooks = [
        ...trackTimers(currentOwner, begin, runAs, nativeSetTimeout),
        ...trackRequests(currentOwner, begin, nativeSetTimeout),
      ];
    // Not reported: a new watch has nothing pending, as the content script assumes.
    watches.set(id, { id, open: true, pending: 0 });
    nativeSetTimeout(() => forget(id), WATCH_MAX_MS);
  };
  const onClose = (event: Event) => {
    const watch = watches.get(String((event as CustomEvent<unknown>).detail));
    if (!watch) return;
    // Its follow-ups are still reported; nothing that starts from now on is its own.
    watch.open = false;
    // Reported only here and when its count falls to 0: the content script knows what is left.
    report(watch);
    if (watch.pending === 0) forget(watch.id);
  };
  const onDrop = (event: Event) => forget(String((event as CustomEvent<unknown>).detail));
  document.addEventListener(ACTIVITY_OPEN, onOpen);
  document.addEventListener(ACTIVITY_CLOSE, onClose);
  document.addEventListener(ACTIVITY_DROP, onDrop);
  return () => {
    document.removeEventListener(ACTIVITY_OPEN, onOpen);
    document.removeEventListener(ACTIVITY_CLOSE, onClose);
    document.removeEventListener(ACTIVITY_DROP, onDrop);
    for (const id of [...watches.keys()]) forget(id);
  };
}

function trackTimers(
  currentOwner: () => Owner | undefined,
  begin: Begin,
  runAs: RunAs,
  nativeSetTimeout: typeof window.setTimeout,
): Unhook[] {
  const nativeClearTimeout = window.clearTimeout.bind(window);
  const tracked = new Map<number, () => void>();
  const timers = hook(window, 'setTimeout', (original) => {
    const pageSetTimeout = original as unknown as typeof window.setTimeout;
    return (handler: TimerHandler, delay?: number, ...args: unknown[]) => {
      const owner = currentOwner();
      if (!owner || typeof handler !== 'function' || Number(delay ?? 0) > FOLLOW_UP_MAX_DELAY_MS)
        return pageSetTimeout(handler, delay, ...args);
      const end = begin(owner);
      const id = nativeSetTimeout(() => {
        tracked.delete(id);
        try {
          runAs(owner, () => handler(...args));
        } finally {
          // After the work this callback's own microtasks do (an `await` in it, a framework's render).
          queueMicrotask(end);
        }
      }, delay);
      tracked.set(id, end);
      return id;
    };
  });
  const clears = hook(window, 'clearTimeout', (original) => (id?: number) => {
    if (id !== undefined) {
      tracked.get(id)?.();
      tracked.delete(id);
    }
    (original as typeof nativeClearTimeout)(id);
  });
  return [timers, clears];
}

/**
 * A request is done once its answer was handed to the page and the page's own continuation ran
 * (one task later): `await fetch(…)` then `location.assign(…)` still belongs to the action. The
 * task hop uses the timer the bridge took before any hook, untracked: it is the tracker's, not the page's.
 */
function trackRequests(
  currentOwner: () => Owner | undefined,
  begin: Begin,
  nativeSetTimeout: typeof window.setTimeout,
): Unhook[] {
  const later = (end: () => void) => () => void nativeSetTimeout(end, 0);
  const fetches = hook(
    window,
    'fetch',
    (nativeFetch) =>
      ({
        fetch(this: unknown, ...args: Parameters<typeof fetch>) {
          const answer = Reflect.apply(nativeFetch, this, args) as Promise<Response>;
          const owner = currentOwner();
          if (owner) {
            const end = begin(owner);
            answer.then(later(end), later(end));
          }
          return answer;
        },
      }).fetch,
  );
  const sends = hook(
    XMLHttpRequest.prototype,
    'send',
    (nativeSend) =>
      ({
        send(this: XMLHttpRequest, ...args: unknown[]) {
          const owner = currentOwner();
          if (owner) this.addEventListener('loadend', later(begin(owner)), { once: true });
          return Reflect.apply(nativeSend, this, args);
        },
      }).send,
  );
  return [fetches, sends];
}
