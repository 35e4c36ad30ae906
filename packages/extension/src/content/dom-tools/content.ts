import type { Tool } from '@tabmcp/protocol';
import { type DomTool, jsonResult } from './dom-tool';
import { type NameRegistry, shortHref } from './text';

const DEFAULT_MAX_CHARS = 8_000;
const LIMIT_MAX_CHARS = 50_000;
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD']);
const BLOCK = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'HEADER',
  'FOOTER',
  'NAV',
  'ASIDE',
  'UL',
  'OL',
  'LI',
  'TABLE',
  'TR',
  'BLOCKQUOTE',
  'PRE',
  'FORM',
  'FIELDSET',
  'DL',
  'DT',
  'DD',
  'FIGURE',
  'FIGCAPTION',
  'BR',
  'HR',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
]);

/** The page's readable text as compact Markdown, in bounded pages, so an agent reads only what it needs. */
export function contentTool(names: NameRegistry): DomTool {
  const tool: Tool = {
    name: names.claim('get_page_content'),
    description:
      "Read the page as compact Markdown (headings, text, lists, tables, links as [text](url)), at most maxChars characters from offset. Prefer the page's other tools to act.",
    inputSchema: {
      type: 'object',
      properties: {
        maxChars: { type: 'integer', minimum: 200, maximum: LIMIT_MAX_CHARS, default: DEFAULT_MAX_CHARS },
        offset: { type: 'integer', minimum: 0, default: 0, description: 'Where to continue (from nextOffset)' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Read the page', readOnlyHint: true, idempotentHint: true },
  };
  return {
    tool,
    isLive: () => true,
    run: async (args) => {
      const maxChars = Math.min(Number(args.maxChars ?? DEFAULT_MAX_CHARS), LIMIT_MAX_CHARS);
      const offset = Math.max(0, Number(args.offset ?? 0));
      const text = pageMarkdown(document);
      const slice = text.slice(offset, offset + maxChars);
      const nextOffset = offset + slice.length < text.length ? offset + slice.length : undefined;
      return jsonResult({
        title: document.title,
        url: location.href,
        content: slice,
        totalChars: text.length,
        ...(nextOffset === undefined ? {} : { nextOffset }),
      });
    },
  };
}

export function pageMarkdown(doc: Document): string {
  const root = doc.querySelector('main, [role=main]') ?? doc.body ?? doc.documentElement;
  const out: string[] = [];
  walk(root, out);
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function walk(node: Node, out: string[]): void {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = (node.textContent ?? '').replace(/\s+/g, ' ');
    if (text.trim()) out.push(text);
    return;
  }
  if (!(node instanceof Element) || SKIP.has(node.tagName.toUpperCase())) return;
  if (node instanceof HTMLElement && (node.hidden || node.getAttribute('aria-hidden') === 'true')) return;
  if (node instanceof HTMLElement && BLOCK.has(node.tagName) && !node.checkVisibility?.({ visibilityProperty: true }))
    return;
  const tag = node.tagName;
  const heading = /^H([1-6])$/.exec(tag);
  if (heading) {
    out.push(`\n\n${'#'.repeat(Number(heading[1]))} ${inline(node)}\n\n`);
    return;
  }
  switch (tag) {
    case 'A': {
      const text = inline(node);
      const href = shortHref(node as HTMLAnchorElement);
      if (text) out.push(href ? `[${text}](${href})` : text);
      return;
    }
    case 'IMG': {
      const alt = (node as HTMLImageElement).alt.trim();
      if (alt) out.push(`[image: ${alt}]`);
      return;
    }
    case 'INPUT':
    case 'SELECT':
    case 'TEXTAREA':
      return;
    case 'BUTTON': {
      const text = inline(node);
      if (text) out.push(`[button: ${text}]`);
      return;
    }
    case 'LI':
      out.push('\n- ');
      break;
    case 'TR':
      out.push('\n|');
      for (const cell of node.children) out.push(` ${inline(cell)} |`);
      return;
    case 'BR':
      out.push('\n');
      return;
    default:
      if (BLOCK.has(tag)) out.push('\n');
  }
  for (const child of node.childNodes) walk(child, out);
  if (BLOCK.has(tag) && tag !== 'LI') out.push('\n');
}

function inline(element: Element): string {
  const parts: string[] = [];
  for (const child of element.childNodes) walk(child, parts);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
