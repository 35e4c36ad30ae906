/**
 * Page-supplied text reaches agents, so it must not pass for tabmcp's own words: no control
 * characters, no bidi overrides that reorder what a reader sees, and no lookalike of the origin
 * marker that tabmcp puts in front of it.
 */

// C0/C1 controls except tab and newline, DEL, and the bidi embeddings, overrides, isolates and marks.
const MULTI_LINE_STRIP =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const SINGLE_LINE_STRIP = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]+/g;
/** What our markers start with; the same text inside page text is defused. */
const FAKE_MARKER = /\[(\s*)(page|site not allowed)/gi;

/** Descriptions and messages: newlines stay, everything else that hides or reorders text goes. */
export function cleanPageText(text: string): string {
  return text.replace(MULTI_LINE_STRIP, '').replace(FAKE_MARKER, '($1$2');
}

/** Titles, names, URLs: one line. */
export function cleanPageLine(text: string): string {
  return text.replace(SINGLE_LINE_STRIP, ' ').replace(FAKE_MARKER, '($1$2');
}

/** `[page <what> from <origin>] <text>`, cut to `max` characters after the marker is added. */
export function markPageText(text: string, origin: string, what: string, max = Number.POSITIVE_INFINITY): string {
  const marked = `[page ${what} from ${cleanPageLine(origin)}] ${cleanPageText(text)}`;
  return marked.length <= max ? marked : `${marked.slice(0, max - 1)}…`;
}
