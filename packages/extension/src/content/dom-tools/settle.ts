import { type RenderContext, renderMarkdown, tidy } from './render';
import { clean, isVisible } from './text';

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
  const before = { url: location.href, title: doc.title };
  const added: Node[] = [];
  const removed: string[] = [];
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
      if (record.type === 'characterData') added.push(record.target);
      else {
        for (const node of record.addedNodes) added.push(node);
        for (const node of record.removedNodes) {
          const text = clean(node.textContent, MAX_REMOVED_CHARS);
          if (text) removed.push(text);
        }
      }
    }
    clearTimeout(quietTimer);
    quietTimer = setTimeout(finish, QUIET_MS);
  });
  const onUnload = () => {
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
  const changes = describeAdded(added, context);
  const observed: Observed = {
    changes,
    removed: describeRemoved(removed, changes),
    messages: messagesAmong([...touched, ...added]),
    navigating: false,
  };
  if (location.href !== before.url) observed.url = location.href;
  if (doc.title !== before.title) observed.title = doc.title;
  return observed;
}

function describeAdded(nodes: Node[], context: RenderContext): string {
  const elements = new Set<Element>();
  for (const node of nodes) {
    if (!node.isConnected) continue;
    const element = node instanceof Element ? node : widen(node.parentElement);
    if (element && isVisible(element)) elements.add(element);
  }
  const roots = [...elements].filter(
    (element) => ![...elements].some((other) => other !== element && other.contains(element)),
  );
  const texts = roots.map((element) => renderMarkdown(element, context)).filter(Boolean);
  const joined = tidy([...new Set(texts)].join('\n'));
  return joined.length > MAX_CHANGE_CHARS ? `${joined.slice(0, MAX_CHANGE_CHARS - 1)}…` : joined;
}

/** A changed text node says little on its own ("1"): report the sentence around it ("1 item left"). */
function widen(element: Element | null): Element | null {
  let current = element;
  while (current?.parentElement && clean(current.textContent).length < 12 && current.parentElement !== document.body)
    current = current.parentElement;
  return current;
}

/** Removed text that came back in the same action is a re-render, not a removal. */
function describeRemoved(texts: string[], added: string): string {
  const flat = clean(added, 100_000);
  const gone = [...new Set(texts)].filter((text) => !flat.includes(text));
  return clean(gone.join(' · '), MAX_REMOVED_CHARS);
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
      const text = clean(region.textContent, 300);
      if (text) found.add(text);
    }
  }
  return [...found].slice(0, 5);
}
