/**
 * The letters that start handles (`k12`), one per document. The background hands each new document
 * of a tab the letter after the tab's previous one, so a handle read on one of the tab's last 19
 * pages never matches a handle of the page now shown (docs/dom-tools.md, "Handles").
 */
export const DOCUMENT_TAGS = 'abcdfghjkmnpqrstuvwz';
