import { type Logger, PORT_NAME } from '@tabmcp/protocol';
import { DOCUMENT_TAGS } from '../document-tag';

const KEY = 'tabmcp.documentTags';

/** A tab's latest documents with their letters, oldest first; at most one per letter. */
type RecentDocuments = Array<{ documentId: string | undefined; tag: string }>;

/**
 * The letter of a document's handles. A document seen before (its Port connects again after a
 * worker restart or from the back/forward cache) keeps its letter; a new one gets the letter after
 * the tab's previous one, so the tab's last DOCUMENT_TAGS.length documents all have different letters.
 */
export function tagFor(recent: RecentDocuments, documentId: string | undefined): string {
  const known = documentId === undefined ? undefined : recent.find((entry) => entry.documentId === documentId);
  if (known) return known.tag;
  const last = recent.at(-1)?.tag;
  const tag =
    last === undefined
      ? (DOCUMENT_TAGS[Math.floor(Math.random() * DOCUMENT_TAGS.length)] ?? 'a')
      : (DOCUMENT_TAGS[(DOCUMENT_TAGS.indexOf(last) + 1) % DOCUMENT_TAGS.length] ?? 'a');
  recent.push({ documentId, tag });
  if (recent.length > DOCUMENT_TAGS.length) recent.splice(0, recent.length - DOCUMENT_TAGS.length);
  return tag;
}

/**
 * Sends each tab document its handle letter over its Port as it connects (before any call, which
 * the content script holds until the letter came). The letters survive a stopped worker in
 * chrome.storage.session, so the document after a restart still differs from the ones before.
 */
export function tagTabDocuments(log: Logger): void {
  const tabs = new Map<number, RecentDocuments>();
  const restored = Promise.all([chrome.storage.session.get(KEY), chrome.tabs.query({})])
    .then(([stored, open]) => {
      const saved = stored[KEY];
      if (typeof saved !== 'object' || saved === null) return;
      // Tabs closed while the worker was stopped are forgotten here: their onRemoved went unheard.
      const openIds = new Set(open.map((tab) => tab.id));
      for (const [tabId, recent] of Object.entries(saved as Record<string, unknown>)) {
        if (Array.isArray(recent) && openIds.has(Number(tabId))) tabs.set(Number(tabId), recent.filter(isRecent));
      }
    })
    .catch((error: unknown) => log('tags.restore-failed', { error: String(error) }));
  const save = () =>
    chrome.storage.session
      .set({ [KEY]: Object.fromEntries(tabs) })
      .catch((error: unknown) => log('tags.save-failed', { error: String(error) }));

  chrome.runtime.onConnect.addListener((port) => {
    const tabId = port.sender?.tab?.id;
    if (port.name !== PORT_NAME || tabId === undefined || port.sender?.frameId !== 0) return;
    void restored.then(() => {
      const recent = tabs.get(tabId) ?? [];
      tabs.set(tabId, recent);
      const tag = tagFor(recent, port.sender?.documentId);
      void save();
      try {
        port.postMessage({ jsonrpc: '2.0', method: 'browser/documentTag', params: { tag } });
      } catch {
        // The document went before its letter arrived: nothing to tag.
      }
    });
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    if (tabs.delete(tabId)) void save();
  });
}

function isRecent(value: unknown): value is RecentDocuments[number] {
  if (typeof value !== 'object' || value === null) return false;
  const { documentId, tag } = value as { documentId?: unknown; tag?: unknown };
  return (
    (documentId === undefined || typeof documentId === 'string') &&
    typeof tag === 'string' &&
    tag.length === 1 &&
    DOCUMENT_TAGS.includes(tag)
  );
}
