import { DOCUMENT_TAGS } from '../document-tag';

/** How long the first call waits for the background's letter before the document picks one itself. */
const TAG_WAIT_MS = 1_000;

let tag: string | undefined;
/** The background answered, or the document stopped waiting for it: no call waits again. */
let settled = false;
let onanswer = () => {};
const answer = new Promise<void>((resolve) => {
  onanswer = resolve;
});

/**
 * The letter the background chose for this document. Only the first counts: a Port that connects
 * again (worker restart, back/forward cache) must not change handles already handed out.
 */
export function adoptDocumentTag(offered: string): void {
  if (tag === undefined && DOCUMENT_TAGS.includes(offered)) tag = offered;
  settled = true;
  onanswer();
}

/** This document's letter, fixed at its first use: the background's, else (it never answered) a random one. */
export function documentTag(): string {
  tag ??= DOCUMENT_TAGS[Math.floor(Math.random() * DOCUMENT_TAGS.length)] ?? 'a';
  return tag;
}

/** Resolves once the background has named the letter, or after TAG_WAIT_MS without an answer. */
export function documentTagSettled(): Promise<void> {
  if (settled) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const givenUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, TAG_WAIT_MS);
  });
  return Promise.race([answer, givenUp]).finally(() => {
    clearTimeout(timer);
    settled = true;
  });
}
