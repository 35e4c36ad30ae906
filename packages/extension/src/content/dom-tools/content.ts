import type { Tool } from '@tabmcp/protocol';
import { cleanPageLine } from '@tabmcp/protocol/light';
import { type DomTool, markedPageText } from './dom-tool';
import { type RenderContext, renderMarkdown } from './render';
import { clean, pageText } from './text';

const DEFAULT_MAX_CHARS = 8_000;
const MIN_MAX_CHARS = 200;
const LIMIT_MAX_CHARS = 50_000;

/**
 * The whole visible page as compact Markdown with a handle on every interactive element, in
 * bounded pages, as plain text: JSON would escape every quote and line break of it.
 */
export function contentTool(name: string, context: RenderContext): DomTool {
  const tool: Tool = {
    name,
    description:
      'Read the visible page as Markdown; each control shows as [role "name" = "value" handle], e.g. [checkbox ☐ "Done" k7], for act. Paged by offset.',
    inputSchema: {
      type: 'object',
      properties: {
        // Out-of-range values are clamped by the handler: the schema stays small for every list read.
        maxChars: { type: 'integer', default: DEFAULT_MAX_CHARS },
        offset: { type: 'integer' },
      },
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
  };
  return {
    tool,
    isLive: () => true,
    run: async (args) => {
      const maxChars = clamp(args.maxChars, DEFAULT_MAX_CHARS, MIN_MAX_CHARS, LIMIT_MAX_CHARS);
      const offset = clamp(args.offset, 0, 0, Number.MAX_SAFE_INTEGER);
      const text = pageMarkdown(document, context);
      const slice = text.slice(offset, offset + maxChars);
      const end = offset + slice.length;
      // tabmcp's own words first (address, paging), then the mark: all that follows it is the page's.
      const paging =
        offset > 0 || end < text.length
          ? ` (characters ${offset}–${end} of ${text.length}${end < text.length ? `; continue with offset ${end}` : ''})`
          : '';
      const title = pageText(clean(document.title, 200)) || '(untitled)';
      return {
        content: [
          { type: 'text', text: `${cleanPageLine(location.href)}${paging}\n${markedPageText(`${title}\n\n${slice}`)}` },
        ],
      };
    },
  };
}

function pageMarkdown(doc: Document, context: RenderContext): string {
  return renderMarkdown(doc.body ?? doc.documentElement, context);
}

function clamp(raw: unknown, fallback: number, min: number, max: number): number {
  const value = typeof raw === 'number' && Number.isFinite(raw) ? Math.trunc(raw) : fallback;
  return Math.min(max, Math.max(min, value));
}
