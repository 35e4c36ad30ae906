import { HANDLE_PATTERN } from './handles';
import { withoutHandles } from './line-handles';

/**
 * A line of the page read that an action removed, as its answer's `removed` writes it. What went is
 * said without handles (they name elements that are gone, so nothing can be done with them), and a
 * run of tokens of one role (a calendar's month of days, a grid's cells that a re-render replaced)
 * as its first, a count and its last: the new ones are in `changes`, with their handles.
 */
export function removedLine(line: string): string {
  return withoutHandles(withoutRuns(line));
}

/** One token as the page read writes it (names never hold brackets), with a link's address after it. */
const TOKEN = new RegExp(`\\[([a-z]+)[^[\\]]* ${HANDLE_PATTERN}\\](?:\\([^)\\s]*\\))?`, 'g');
/** Runs up to this long are written whole. */
const WHOLE_RUN = 3;

function withoutRuns(line: string): string {
  const tokens = [...line.matchAll(TOKEN)];
  const runs: { from: number; to: number }[] = [];
  let start = 0;
  for (let index = 1; index <= tokens.length; index++) {
    const previous = tokens[index - 1];
    const current = tokens[index];
    const joined =
      current !== undefined &&
      previous !== undefined &&
      current[1] === previous[1] &&
      line.slice(previous.index + previous[0].length, current.index).trim() === '';
    if (joined) continue;
    if (index - start > WHOLE_RUN) runs.push({ from: start, to: index - 1 });
    start = index;
  }
  let out = line;
  // From the end, so the offsets of earlier runs still hold.
  for (const run of runs.reverse()) {
    const first = tokens[run.from];
    const last = tokens[run.to];
    if (!first || !last) continue;
    const between = run.to - run.from - 1;
    out = `${out.slice(0, first.index)}${first[0]} …${between} more ${first[1]}… ${last[0]}${out.slice(last.index + last[0].length)}`;
  }
  return out;
}
