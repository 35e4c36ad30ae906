/**
 * Which parts of the page change on their own (a clock, a countdown, a live feed), so an action
 * neither waits for them nor reports them as its own change. A node that changed at least twice,
 * outside our actions, within RECENT_MS, the last time within RECENT_MS before the action, is
 * "ticking". A list an action changed a moment ago is not: changes made while an action of ours
 * runs are recorded only for what was ticking already.
 */
const RECENT_MS = 1_500;

interface Changed {
  previous: number;
  last: number;
}

const history = new WeakMap<Node, Changed>();
let observer: MutationObserver | undefined;
let acting = 0;

/** Starts recording the changes of `doc` (once per document). */
export function recordChanges(doc: Document): void {
  if (observer) return;
  observer = new MutationObserver((records) => {
    // While an action runs, only what was ticking already is known to tick still (a clock across long actions).
    const now = performance.now();
    remember(acting > 0 ? records.filter((record) => wasTicking(record.target, now)) : records);
  });
  observer.observe(doc.documentElement, RECORDED);
}

const RECORDED: MutationObserverInit = { childList: true, subtree: true, characterData: true };
const recorded = new WeakSet<Node>();

/**
 * Records the changes of shadow roots and same-origin frame documents too (a clock in a frame), which
 * the document's observer does not see: an action watches them (settle.ts), and must know what ticks there.
 */
export function recordChangesIn(roots: ReadonlyArray<Document | ShadowRoot>): void {
  if (!observer) return;
  for (const root of roots) {
    // One observer reports a mutation once, however many of its roots hold it: the document is no double.
    if (recorded.has(root)) continue;
    recorded.add(root);
    observer.observe(root, RECORDED);
  }
}

function remember(records: MutationRecord[]): void {
  const now = performance.now();
  for (const { target } of records) {
    const seen = history.get(target);
    if (seen?.last !== now) history.set(target, { previous: seen?.last ?? Number.NEGATIVE_INFINITY, last: now });
  }
}

/** Marks the span of one of our actions: what changes meanwhile is not the page's own ticking. */
export function duringAction(): () => void {
  remember(observer?.takeRecords() ?? []);
  acting++;
  return () => {
    const now = performance.now();
    remember((observer?.takeRecords() ?? []).filter((record) => wasTicking(record.target, now)));
    acting--;
  };
}

/** True when `node` (or the element that holds a text node) was ticking before `since`. */
export function wasTicking(node: Node, since: number): boolean {
  for (const candidate of [node, node.parentNode]) {
    const seen = candidate ? history.get(candidate) : undefined;
    if (seen && since - seen.last < RECENT_MS && seen.last - seen.previous < RECENT_MS) return true;
  }
  return false;
}
