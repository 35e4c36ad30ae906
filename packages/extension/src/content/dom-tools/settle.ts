import { type RenderContext, renderMarkdown } from './render';
import { isVisible, visibleText } from './text';

const QUIET_MS = 150;
const MAX_WAIT_MS = 2_000;
const MAX_CHANGE_CHARS = 2_000;
const MAX_REMOVED_CHARS = 500;
const MESSAGES = '[role=alert], [role=status], [aria-live]:not([aria-live=off]), output';

/** What an action did to the page, as the agent is told. */
export interface Observed {
  changes: string;
  removed: string;
  messages: string[];
  /** The page started loading another document. */
  navigating: boolean;
  url?: string;
  title?: string;
}

/**
 * Runs an action, then waits until the page stops changing (150 ms without mutations, 2 s at
 * most) and reports what it added, removed and announced, so an agent sees the outcome without
 * reading the whole page again. A page that starts to unload is answered at once.
 */
export async function actAndObserve(
  action: () => void | Promise<void>,
  context: RenderContext,
  keepWatching: () => boolean = () => true,
): Promise<Observed> {
  const doc = document;
  const root = doc.body ?? doc.documentElement;
  const before = { url: location.href, title: doc.title, lines: pageLines(root, context) };
  const touched: Node[] = [];
  let navigating = false;
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      touched.push(record.target);
      for (const node of record.addedNodes) touched.push(node);
    }
    clearTimeout(quietTimer);
    quietTimer = setTimeout(finish, QUIET_MS);
  });
  const onUnload = (event: Event) => {
    // A page can dispatch a fake beforeunload of its own; only the browser's counts.
    if (!event.isTrusted) return;
    navigating = true;
    finish();
  };
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  window.addEventListener('beforeunload', onUnload);
  window.addEventListener('pagehide', onUnload);
  const cap = setTimeout(finish, MAX_WAIT_MS);
  quietTimer = setTimeout(finish, QUIET_MS);
  try {
    await action();
    if (keepWatching()) await done;
    else navigating = true;
  } finally {
    observer.takeRecords();
    observer.disconnect();
    window.removeEventListener('beforeunload', onUnload);
    window.removeEventListener('pagehide', onUnload);
    clearTimeout(quietTimer);
    clearTimeout(cap);
  }
  if (navigating) return { changes: '', removed: '', messages: [], navigating };
  const { added, removed } = lineDiff(before.lines, pageLines(root, context));
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
      removed.filter((line) => !stillThere.has(handlesOf(line)) && !wasRecounted(line)),
      MAX_REMOVED_CHARS,
    ),
    messages,
    navigating: false,
  };
  if (location.href !== before.url) observed.url = location.href;
  if (doc.title !== before.title) observed.title = doc.title;
  return observed;
}

/** The page as get_page_content reads it, one line per block. */
function pageLines(root: Element, context: RenderContext): string[] {
  return renderMarkdown(root, context)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function handlesOf(line: string): string {
  return (line.match(/ [a-z]\d+\]/g) ?? []).join('');
}

/** A re-rendered element gets a new handle: lines are compared without their handles. */
const withoutHandles = (line: string) => line.replace(/ [a-z]\d+\]/g, ']');

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
    const element = node instanceof Element ? node : node.parentElement;
    const regions = [element?.closest(MESSAGES), ...(element?.querySelectorAll(MESSAGES) ?? [])];
    for (const region of regions) {
      if (!region || !isVisible(region)) continue;
      const text = visibleText(region, 300);
      if (text) found.add(text);
    }
  }
  return [...found].slice(0, 5);
}
