/**
 * The `_meta` key of a tab's answer whose call started loading another document. The content script
 * that answers cannot outlive its page, so it marks the answer and the background, which sees the
 * tab load, adds where it went (docs/dom-tools.md, "Results").
 */
export const NAVIGATING_META = 'tabmcp/navigating';
