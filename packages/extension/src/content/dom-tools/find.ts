/**
 * Find in page: the passages (blocks of get_page_content's Markdown) that match a query, each under
 * the heading it sits in, with their handles, so one factual question costs one small read
 * instead of the whole page (docs/dom-tools.md, "get_page_content").
 */

/** Words too common to tell passages apart. */
const STOP_WORDS = new Set(
  'a an and are as at be by did do does for from has have how in is it its of on or that the this to was were what when where which who why will with'.split(
    ' ',
  ),
);
const MAX_PASSAGES = 12;
const MAX_PASSAGE_CHARS = 1_200;

export interface Found {
  text: string;
  passages: number;
  lines: number;
}

/** The lines that hold most of the query's words, best first in number, written in page order. */
export function findPassages(markdown: string, query: string, maxChars: number): Found {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => (word.length > 1 || isNumber(word)) && !STOP_WORDS.has(word)),
    ),
  ].map(stem);
  // A number names one thing ("message #5000", "order 12"): a line without it is about another, whatever else it holds.
  const numbers = words.filter(isNumber).map((number) => new RegExp(`(?<![\\p{N}])${number}(?![\\p{N}])`, 'u'));
  const lines = markdown.split('\n');
  if (words.length === 0) return { text: '', passages: 0, lines: lines.length };
  const headingOf: string[] = [];
  let heading = '';
  const scored: Array<{ index: number; score: number }> = [];
  lines.forEach((line, index) => {
    if (/^#{1,6} /.test(line)) heading = line;
    headingOf[index] = heading;
    const lower = line.toLowerCase();
    if (!numbers.every((number) => number.test(lower))) return;
    const score = words.filter((word) => lower.includes(word)).length;
    if (score > 0) scored.push({ index, score });
  });
  const best = Math.max(0, ...scored.map((entry) => entry.score));
  // Passages with at least half the best passage's words: "bridge opened year" should not list every "year".
  const kept = scored
    .filter((entry) => entry.score * 2 >= best)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, MAX_PASSAGES);
  const chosen: number[] = [];
  let size = 0;
  for (const entry of kept) {
    const length = Math.min(lines[entry.index]?.length ?? 0, MAX_PASSAGE_CHARS);
    if (chosen.length > 0 && size + length > maxChars) break;
    chosen.push(entry.index);
    size += length;
  }
  // A field's label read on a line of its own is followed by the field's token, written without the
  // name (`Country` then `[combobox = "" k4]`): the label's passage carries the field it names.
  for (const index of [...chosen]) {
    const field = labelledFieldAfter(lines, index);
    if (field !== undefined && !chosen.includes(field)) chosen.push(field);
  }
  chosen.sort((a, b) => a - b);
  const out: string[] = [];
  let lastHeading = '';
  for (const index of chosen) {
    const under = headingOf[index] ?? '';
    const line = lines[index] ?? '';
    if (under && under !== lastHeading && under !== line) out.push('', under);
    lastHeading = under;
    out.push(line.length > MAX_PASSAGE_CHARS ? `${line.slice(0, MAX_PASSAGE_CHARS - 1)}…` : line);
  }
  return { text: out.join('\n').trim(), passages: chosen.length, lines: lines.length };
}

/** A field token with no name (its label written before it), as the line's start: `[textbox = "" k3]`. */
const NAMELESS_FIELD = /^\[[a-z]+ = "/;

/** The line of the field a label line names: the next line with text, when it starts with a nameless field. */
function labelledFieldAfter(lines: readonly string[], index: number): number | undefined {
  let next = index + 1;
  while (next < lines.length && lines[next]?.trim() === '') next++;
  return NAMELESS_FIELD.test(lines[next] ?? '') ? next : undefined;
}

const isNumber = (word: string) => /^\p{N}+$/u.test(word);

/** "opened", "opening", "opens" all find "open": the word without a common ending. */
function stem(word: string): string {
  if (word.length <= 4) return word;
  return word.replace(/(ing|ed|es|s)$/, '');
}
