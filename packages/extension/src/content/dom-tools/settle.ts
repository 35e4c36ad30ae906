import { type ActivityWatch, watchActivity } from '../page-activity';
import { duringAction, wasTicking } from './change-history';
import { composedRoots, isElement } from './composed-tree';
import { handlesOf, withoutHandles } from './line-handles';
import { removedLine } from './removed-lines';
import { type RenderContext, renderMarkdown } from './render';
import { waitForSettle } from './settle-wait';
import { clean, isVisible, visibleText } from './text';

/** The bound on waiting for an action's changes; the common case answers in a few milliseconds. */
const MAX_WAIT_MS = 2_000;
const MAX_CHANGE_CHARS = 2_000;
const MAX_REMOVED_CHARS = 500;
const WATCHED: MutationObserverInit = { childList: true, subtree: true, characterData: true };
const DOCUMENT_NODE = 9;
const MESSAGES = '[role=alert], [role=status], [aria-live]:not([aria-live=off]), output';

/** What an action did to the page, as the agent is told. */
export interface Observed {
  changes: string;
  removed: string;
  messages: string[];
  /** The action started loading another document (the background confirms it and says where). */
  navigating: boolean;
  url?: string;
  title?: string;
}

/**
 * Runs an action, then waits until the changes it caused have settled (docs/dom-tools.md, "How an
 * action settles"): its own mutations, and the timers and requests it started, as the MAIN world
 * reports them (bridge/page-activity.ts). No fixed quiet time: an action that changes nothing
 * answers after one turn of the event loop. A part of the page that was changing on its own
 * before the action (a clock) neither holds the answer nor is reported. A navigation the action
 * started answers at once, without reading the page again.
 */
/**
 * The action's own end, or the start of the navigation it caused, whichever comes first: a click
 * sent as the browser's input is answered by the background only after the page handled it, and a
 * page that navigates at once may be gone by then. The navigation is the click's effect; the answer
 * must leave before the document does.
 */
function untilDoneOrLeaving(
  done: void | Promise<void>,
  activity: ActivityWatch,
  unloading: () => boolean,
  listeners: Set<() => void>,
): Promise<void> {
  if (!(done instanceof Promise)) return Promise.resolve();
  let stop = () => {};
  const leaving = new Promise<void>((resolve) => {
    const check = () => {
      if (unloading() || activity.navigating() !== undefined) resolve();
    };
    const stopReports = activity.onReport(check);
    listeners.add(check);
    stop = () => {
      stopReports();
      listeners.delete(check);
    };
  });
  // A failure that comes once the page is leaving answers nobody: it is the document's end.
  done.catch(() => {});
  return Promise.race([done, leaving]).finally(stop);
}

export async function actAndObserve(
  action: () => void | Promise<void>,
  context: RenderContext,
  keepWatching: () => boolean = () => true,
  roots: ReadonlyArray<Document | ShadowRoot> = [],
): Promise<Observed> {
  const doc = document;
  const root = doc.body ?? doc.documentElement;
  const before = { url: location.href, title: doc.title, lines: pageLines(root, context) };
  const since = performance.now();
  const touched: Node[] = [];
  const ticked = new Set<Node>();
  const listeners = new Set<() => void>();
  let unloading = false;
  let navigating = false;
  const observer = new MutationObserver((records) => {
    let own = false;
    for (const record of records) {
      if (wasTicking(record.target, since)) {
        ticked.add(record.target);
        continue;
      }
      own = true;
      touched.push(record.target);
      for (const node of record.addedNodes) touched.push(node);
    }
    if (own) for (const listener of listeners) listener();
  });
  // A fake `pagehide` dispatched by the page is not its unloading.
  const onUnload = (event: Event) => {
    if (!event.isTrusted) return;
    unloading = true;
    for (const listener of listeners) listener();
  };
  const actionEnded = duringAction();
  observer.observe(root, WATCHED);
  // A subtree observer stops at shadow roots and frame documents: a same-origin frame's toast, or a
  // component's status line, is the action's change too (its message, its settling). The roots are
  // the page's last derivation's; a frame document since replaced (its window gone) is not watched.
  for (const other of roots)
    if (other !== doc && (other.nodeType !== DOCUMENT_NODE || (other as Document).defaultView))
      observer.observe(other, WATCHED);
  window.addEventListener('pagehide', onUnload);
  const activity = watchActivity();
  const animating = animationsStartedSince(doc, () => {
    for (const listener of listeners) listener();
  });
  try {
    try {
      await untilDoneOrLeaving(action(), activity, () => unloading, listeners);
    } finally {
      activity.close();
    }
    if (keepWatching()) {
      await waitForSettle({
        busy: () => activity.pending() > 0 || animating(),
        over: () => unloading || activity.navigating() !== undefined,
        subscribe: (changed) => {
          listeners.add(changed);
          const stopReports = activity.onReport(changed);
          return () => {
            listeners.delete(changed);
            stopReports();
          };
        },
        maxWaitMs: MAX_WAIT_MS,
      });
    } else navigating = true;
  } finally {
    observer.takeRecords();
    observer.disconnect();
    window.removeEventListener('pagehide', onUnload);
    activity.stop();
    actionEnded();
  }
  navigating ||= unloading || activity.navigating() !== undefined;
  // A document on its way out is not read again: the answer must leave before the new document commits.
  if (navigating) return { changes: '', removed: '', messages: [], navigating };
  const tickingText = [...ticked].map((node) => clean(node.textContent, 200)).filter(Boolean);
  const { added, removed } = withoutTicking(lineDiff(before.lines, pageLines(root, context)), tickingText);
  const messages = messagesAmong(touched);
  // A line whose elements are still there changed state: its new form in `changes` says it all.
  const stillThere = new Set(added.map(handlesOf).filter(Boolean));
  // So did a line whose numbers alone changed ("1 item left" → "2 items left"): said once, as it is now.
  const recounted = new Map<string, number>();
  for (const line of added) {
    const key = numbersOut(line);
    if (key) recounted.set(key, (recounted.get(key) ?? 0) + 1);
  }
  const wasRecounted = (line: string) => {
    const key = numbersOut(line);
    const count = key ? (recounted.get(key) ?? 0) : 0;
    if (key && count > 0) recounted.set(key, count - 1);
    return count > 0;
  };
  const observed: Observed = {
    changes: capped(
      added.filter((line) => !messages.includes(line)),
      MAX_CHANGE_CHARS,
    ),
    removed: capped(
      removed.filter((line) => !stillThere.has(handlesOf(line)) && !wasRecounted(line)).map(removedLine),
      MAX_REMOVED_CHARS,
    ),
    messages,
    navigating,
  };
  if (location.href !== before.url) observed.url = location.href;
  if (doc.title !== before.title) observed.title = doc.title;
  return observed;
}

/**
 * Whether an animation or transition the action started is still running (a dialog fading in):
 * until it ends, what it shows is not yet seen by a person (visibility.ts judges opacity), so the
 * answer waits for it, still within the bound. Animations running before the action (a spinner, a
 * carousel) and endless ones hold nothing. Each one found wakes the wait when it finishes, as it
 * ends with no DOM mutation (and the Web Animations API fires no DOM event).
 */
function animationsStartedSince(doc: Document, ended: () => void): () => boolean {
  if (typeof doc.getAnimations !== 'function') return () => false;
  // A document's getAnimations leaves out those in shadow roots (a component's dialog): each root is asked.
  const all = () => composedRoots(doc).flatMap((root) => root.getAnimations());
  const before = new Set(all());
  const watched = new WeakSet<Animation>();
  return () => {
    let running = false;
    for (const animation of all()) {
      if (before.has(animation) || animation.playState !== 'running') continue;
      const end = animation.effect?.getComputedTiming().endTime;
      if (typeof end !== 'number' || !Number.isFinite(end)) continue;
      running = true;
      if (watched.has(animation)) continue;
      watched.add(animation);
      animation.finished.then(ended, ended);
    }
    return running;
  };
}

/**
 * The diff without the lines of parts that tick on their own: a line holding a ticking part's text
 * now, and the line it replaced (the same line with other numbers).
 */
function withoutTicking(
  diff: { added: string[]; removed: string[] },
  tickingText: string[],
): { added: string[]; removed: string[] } {
  if (tickingText.length === 0) return diff;
  const ticking = (line: string) => tickingText.some((text) => line.includes(text));
  const tickingKeys = new Set(diff.added.filter(ticking).map((line) => numbersOut(line) ?? withoutHandles(line)));
  return {
    added: diff.added.filter((line) => !ticking(line)),
    removed: diff.removed.filter((line) => !tickingKeys.has(numbersOut(line) ?? withoutHandles(line))),
  };
}

/** The page as get_page_content reads it, one line per block. */
function pageLines(root: Element, context: RenderContext): string[] {
  return renderMarkdown(root, context)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** A line with its numbers and plural endings left out, or undefined when it has no number. */
function numbersOut(line: string): string | undefined {
  const bare = withoutHandles(line);
  return /\d/.test(bare) ? bare.replace(/\d+/g, '#').replace(/(\w)s\b/g, '$1') : undefined;
}

/**
 * The lines an action added and removed, compared as multisets: first as written, then without
 * handles, so a list that a framework rebuilt whole reads as the one row that changed.
 */
function lineDiff(before: string[], after: string[]): { added: string[]; removed: string[] } {
  let removed = before;
  let added = after;
  for (const key of [(line: string) => line, withoutHandles]) {
    const left = new Map<string, number>();
    for (const line of removed) left.set(key(line), (left.get(key(line)) ?? 0) + 1);
    const unmatched: string[] = [];
    for (const line of added) {
      const count = left.get(key(line)) ?? 0;
      if (count > 0) left.set(key(line), count - 1);
      else unmatched.push(line);
    }
    removed = removed.filter((line) => {
      const count = left.get(key(line)) ?? 0;
      if (count === 0) return false;
      left.set(key(line), count - 1);
      return true;
    });
    added = unmatched;
  }
  return { added, removed };
}

function capped(lines: string[], max: number): string {
  const joined = lines.join('\n');
  return joined.length > max ? `${joined.slice(0, max - 1)}…` : joined;
}

/** Alerts, status lines and live regions the action touched, as they read now. */
function messagesAmong(touched: Node[]): string[] {
  const found = new Set<string>();
  for (const node of touched) {
    if (!node.isConnected) continue;
    // A node type, not instanceof: a same-origin frame's elements belong to another window, and taking
    // their parent instead would report an untouched message beside the touched one.
    const element = isElement(node) ? node : node.parentElement;
    const regions = [element?.closest(MESSAGES), ...(element?.querySelectorAll(MESSAGES) ?? [])];
    for (const region of regions) {
      if (!region || !isVisible(region)) continue;
      const text = visibleText(region, 300);
      if (text) found.add(text);
    }
  }
  return [...found].slice(0, 5);
}
