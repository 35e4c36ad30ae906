import { cleanPageLine, DEFAULT_READ_CHARS, ownPageTool } from '@tabmcp/protocol/light';
import { type DomTool, markedPageText } from './dom-tool';
import { findPassages } from './find';
import { readFrame } from './frame-link';
import { isChrome, mainRoot } from './main-content';
import { type RenderContext, renderUpTo } from './render';
import { clean, pageText } from './text';

const DEFAULT_MAX_CHARS = DEFAULT_READ_CHARS;
const DEFAULT_FOUND_CHARS = 3_000;
const MIN_MAX_CHARS = 200;
const LIMIT_MAX_CHARS = 50_000;

/**
 * The visible page as compact Markdown with a handle on every interactive element, in bounded
 * pages, as plain text (JSON would escape every quote and line break of it); only its main content
 * with `main`, only the passages that match with `query`.
 */
export function contentTool(name: string, context: RenderContext): DomTool {
  const tool = ownPageTool('get_page_content', name);
  return {
    tool,
    isLive: () => true,
    run: async (args) => {
      const query = typeof args.query === 'string' ? args.query.trim() : '';
      const maxChars = clamp(
        args.maxChars,
        query ? DEFAULT_FOUND_CHARS : DEFAULT_MAX_CHARS,
        MIN_MAX_CHARS,
        LIMIT_MAX_CHARS,
      );
      const offset = clamp(args.offset, 0, 0, Number.MAX_SAFE_INTEGER);
      // A find reads the whole page; a read walks only as far as the part it shows (tidying only shrinks it).
      const limit = query ? Number.POSITIVE_INFINITY : (offset + maxChars) * 2 + 1_000;
      const { text, complete } = await readPage(document, context, args.main === true, limit);
      let body: string;
      let note: string;
      if (query) {
        const found = findPassages(text, query, maxChars);
        note = ` (${found.passages} passage${found.passages === 1 ? '' : 's'} matching ${JSON.stringify(clean(query, 80))} among ${found.lines} lines${found.passages ? '' : '; try other words, or read without query'})`;
        body = found.text;
      } else {
        body = text.slice(offset, offset + maxChars);
        const end = offset + body.length;
        const total = complete ? `${text.length}` : `more than ${text.length}`;
        note =
          offset > 0 || end < text.length || !complete
            ? ` (characters ${offset}–${end} of ${total}${end < text.length || !complete ? `; continue with offset ${end}` : ''})`
            : '';
      }
      // tabmcp's own words first (address, paging), then the mark: all that follows it is the page's.
      const title = pageText(clean(document.title, 200)) || '(untitled)';
      return {
        content: [
          { type: 'text', text: `${cleanPageLine(location.href)}${note}\n${markedPageText(`${title}\n\n${body}`)}` },
        ],
      };
    },
  };
}

/**
 * The page as a read writes it, its frames of another site read where they stand: a walk finds
 * them, each is asked (in parallel, through the background) and the walk is made again with their
 * reads. A page with none is walked once, as before.
 */
export async function readPage(doc: Document, context: RenderContext, main: boolean, limit: number) {
  const frames = { found: [] as Element[], reads: new Map<Element, string>() };
  const first = pageMarkdown(doc, { ...context, frames }, main, limit);
  if (frames.found.length === 0) return first;
  const asked = [...new Set(frames.found)];
  const reads = await Promise.all(
    asked.map(async (frame) => [frame, await readFrame(frame, context.handles, main, limit)] as const),
  );
  for (const [frame, read] of reads) frames.reads.set(frame, read);
  frames.found.length = 0;
  return pageMarkdown(doc, { ...context, frames }, main, limit);
}

function pageMarkdown(doc: Document, context: RenderContext, main: boolean, limit: number) {
  const body = doc.body ?? doc.documentElement;
  if (!main) return renderUpTo(body, context, limit);
  // The marked main part when the page has one; else the body, each piece of chrome left out as it is met.
  return renderUpTo(mainRoot(doc) ?? body, context, limit, isChrome);
}

function clamp(raw: unknown, fallback: number, min: number, max: number): number {
  const value = typeof raw === 'number' && Number.isFinite(raw) ? Math.trunc(raw) : fallback;
  return Math.min(max, Math.max(min, value));
}
