/** A document cited in a text: its path, and the anchor or section named with it, if any. */
export interface Citation {
  path: string;
  anchor?: string;
  section?: string;
  line: number;
}

/**
 * `docs/x.md`, `x.md#anchor`, `x.md "Section"`, `x.md, "Section"`, `x.md's "Section"`, and the
 * README named without its extension before a quoted section (`the README, "Section"`). A name
 * inside an address (`https://…/x.md`) is a link, not a citation.
 */
const CITATION =
  /(?<![\w./:-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]*\w\.md|README)(?:#([\w-]+))?(?:(?:'s)?,? ["“]([^"”\n]+)["”])?/g;

export function citationsIn(text: string): Citation[] {
  const found: Citation[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    for (const match of line.matchAll(CITATION)) {
      const [, name = '', anchor, section] = match;
      if (name === 'README' && !section) continue;
      // A bare quoted file name ('summary.md') is a file the code reads or writes, not a citation.
      const quotedAlone = !name.includes('/') && /['"`]$/.test(line.slice(0, match.index)) && !anchor && !section;
      if (quotedAlone) continue;
      found.push({
        path: name === 'README' ? 'README.md' : name,
        anchor,
        section,
        line: index + 1,
      });
    }
  });
  return found;
}

/** Markdown headings, lowercased and without backticks or emphasis. */
export function sectionHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (heading?.[1]) headings.push(heading[1].replace(/[`*]/g, '').trim().toLowerCase());
    // A table row's first cell counts too: some requirements are rows of a table.
    const row = fenced ? null : /^\|\s*([^|]+?)\s*\|/.exec(line);
    if (row?.[1]) headings.push(row[1].replace(/[`*]/g, '').trim().toLowerCase());
  }
  return headings;
}

/** The anchors GitHub gives a document's headings (lowercase, punctuation dropped, spaces to dashes). */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading?.[1]) continue;
    const base = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of markdown.matchAll(/<a (?:id|name)="([\w-]+)"/g)) if (match[1]) slugs.add(match[1]);
  return slugs;
}
