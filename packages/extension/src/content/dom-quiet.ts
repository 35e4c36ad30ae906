import { recordChanges, wasTicking } from './dom-tools/change-history';
import { OBSERVED } from './dom-tools/dom-tool-server';

/**
 * When the document last changed, as its own mutations tell (docs/dom-tools.md, "When open_tab
 * answers"): watched from the content script's start, so that a load's readiness is measured by
 * the page's events rather than guessed with a sleep. A part that ticks on its own (a clock's text)
 * is not a change of the page's build-up: a clock would otherwise hold every open_tab to its cap.
 */
export interface DomQuiet {
  /**
   * Resolves once no change came for `quietMs`, counted from the last change or from `activeAgoMs`
   * ago (what else the page did last, as told), whichever is later; or at `maxWaitMs`. True if it went quiet.
   */
  until(quietMs: number, maxWaitMs: number, activeAgoMs: number): Promise<boolean>;
  /** When the document last changed (performance.now()), a clock's tick aside; -Infinity if it did not since the watch began. */
  lastChange(): number;
  stop(): void;
}

/** What changes the tools, and text: a page that is still filling in its lines is not ready to be read. */
const WATCHED: MutationObserverInit = { ...OBSERVED, characterData: true };

export function watchDomQuiet(doc: Document, now: () => number = () => performance.now()): DomQuiet {
  recordChanges(doc);
  let lastChange = Number.NEGATIVE_INFINITY;
  const listeners = new Set<() => void>();
  const observer = new MutationObserver((records) => {
    const at = now();
    if (records.every((record) => isTick(record, at))) return;
    lastChange = at;
    for (const listener of listeners) listener();
  });
  observer.observe(doc, WATCHED);
  // The observer's records of this very turn are not delivered yet: taken before the last change is read.
  const takePending = () => {
    const pending = observer.takeRecords();
    if (pending.length > 0 && !pending.every((record) => isTick(record, now()))) lastChange = now();
  };
  return {
    until(quietMs, maxWaitMs, activeAgoMs) {
      lastChange = Math.max(lastChange, now() - activeAgoMs);
      return new Promise((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (quiet: boolean) => {
          clearTimeout(timer);
          clearTimeout(cap);
          listeners.delete(recheck);
          resolve(quiet);
        };
        // The only waits: the rest of the window since the last change (moved by each change), and the bound.
        const recheck = () => {
          takePending();
          const left = lastChange + quietMs - now();
          if (left <= 0) return finish(true);
          clearTimeout(timer);
          timer = setTimeout(recheck, left);
        };
        const cap = setTimeout(() => finish(false), maxWaitMs);
        listeners.add(recheck);
        recheck();
      });
    },
    lastChange() {
      takePending();
      return lastChange;
    },
    stop() {
      observer.disconnect();
      listeners.clear();
    },
  };
}

/** A clock's tick: text replaced in a node that was changing on its own, no element added or removed. */
function isTick(record: MutationRecord, at: number): boolean {
  if (record.type === 'attributes' || !wasTicking(record.target, at)) return false;
  const nodes = [...record.addedNodes, ...record.removedNodes];
  return nodes.every((node) => node.nodeType === Node.TEXT_NODE);
}
