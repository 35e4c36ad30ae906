import {
  ACTIVITY_RECORD_KEY,
  type ActivityEntry,
  ActivityRecord,
  CLEAR_ACTIVITY_MESSAGE,
  MAX_ACTIVITY_ENTRIES,
} from '@tabmcp/protocol';

/** Writes are folded: a burst of calls is one storage write, made off the call's path. */
const FLUSH_AFTER_MS = 200;

let entries: Promise<ActivityEntry[]> | undefined;
let flushPending = false;

/**
 * What agents did in this browser, per call, for the person to read in the popup
 * (docs/user-guide.md, "What agents did"): kept in chrome.storage.local, the newest
 * MAX_ACTIVITY_ENTRIES, cleared from the popup.
 */
export function recordActivity(entry: ActivityEntry): void {
  entries = loaded().then((list) => [...list, entry].slice(-MAX_ACTIVITY_ENTRIES));
  if (flushPending) return;
  flushPending = true;
  setTimeout(() => {
    flushPending = false;
    void entries?.then((list) => chrome.storage.local.set({ [ACTIVITY_RECORD_KEY]: list })).catch(() => {});
  }, FLUSH_AFTER_MS);
}

/** Listens for the popup's "Clear" (extension pages only: a content script must not erase the record). */
export function listenForClearActivity(): void {
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL(''))) return false;
    if ((raw as { type?: unknown } | null)?.type !== CLEAR_ACTIVITY_MESSAGE) return false;
    entries = Promise.resolve([]);
    chrome.storage.local.remove(ACTIVITY_RECORD_KEY).then(
      () => sendResponse({ cleared: true }),
      (error: unknown) => sendResponse({ cleared: false, error: String(error) }),
    );
    return true;
  });
}

function loaded(): Promise<ActivityEntry[]> {
  entries ??= chrome.storage.local.get(ACTIVITY_RECORD_KEY).then(
    (stored) => {
      const parsed = ActivityRecord.safeParse(stored[ACTIVITY_RECORD_KEY]);
      return parsed.success ? parsed.data : [];
    },
    () => [],
  );
  return entries;
}
