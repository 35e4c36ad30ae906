import type { Tool } from './tool';

/**
 * The four page tools whose words are tabmcp's, not the page's (docs/dom-tools.md): the content
 * script builds them from these definitions, and the server lists a tool that is exactly one of them
 * without the `[page <origin>]` mark, which is there to set page-written text apart (docs/security.md).
 * Every byte here is read at every tools/list_changed, so the words are few.
 */
export const ACT_ACTIONS = [
  'click',
  'dblclick',
  'hover',
  'fill',
  'check',
  'uncheck',
  'select',
  'press',
  'drag',
  'upload',
] as const;
export const SCROLL_DIRECTIONS = ['down', 'up', 'right', 'left'] as const;
export const MAX_SCROLL_PAGES = 10;
export const DEFAULT_READ_CHARS = 8_000;

type OwnPageTool = Omit<Tool, 'name'>;

export const OWN_PAGE_TOOLS = {
  get_page_content: {
    description:
      'Read the visible page as Markdown, each control as [role "name" = "value" handle] (e.g. [checkbox ☐ "Done" k7]) for act. Paged by offset; query: only the passages that match; main: true leaves out navigation, sidebars and footers.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        main: { type: 'boolean' },
        // Out-of-range values are clamped by the handler: the schema stays small for every list read.
        maxChars: { type: 'integer', default: DEFAULT_READ_CHARS },
        offset: { type: 'integer' },
      },
    },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  open_link: {
    description: 'Follow a link by its text or its address, as get_page_content shows them.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, href: { type: 'string' } } },
  },
  act: {
    description:
      'Act on a handle from get_page_content (e.g. k7). value: the text to fill, the option to select (in a text field: the text to select), the handle to drag onto, or a local file to upload; submit: true presses Enter after fill; press takes key (default Enter). Prefer a named tool that fits.',
    inputSchema: {
      type: 'object',
      properties: {
        handle: { type: 'string' },
        action: { type: 'string', enum: [...ACT_ACTIONS] },
        value: { type: 'string' },
        key: { type: 'string' },
        submit: { type: 'boolean' },
      },
      required: ['handle', 'action'],
    },
  },
  scroll: {
    description:
      'Scroll to reach content not rendered yet (virtualized lists, feeds): direction (default down), pages (default 1), handle: an element inside the region to scroll (default: the largest in view, else the page). The answer lists what came into view.',
    inputSchema: {
      type: 'object',
      properties: {
        direction: { type: 'string', enum: [...SCROLL_DIRECTIONS] },
        pages: { type: 'integer', minimum: 1, maximum: MAX_SCROLL_PAGES },
        handle: { type: 'string' },
      },
    },
  },
} as const satisfies Record<string, OwnPageTool>;

export type OwnPageToolName = keyof typeof OWN_PAGE_TOOLS;

/** One of our page tools under `name` (the reading tools are renamed `tabmcp_…` beside a page's own of that name). */
export function ownPageTool(base: OwnPageToolName, name: string = base): Tool {
  return { name, ...structuredClone(OWN_PAGE_TOOLS[base]) } as Tool;
}

/**
 * Whether a listed tool is one of ours to the letter: name (or its `tabmcp_` rename), description,
 * schema, annotations, and nothing else. Whoever delivered it, it then holds no word a page chose,
 * so it needs no page mark; one changed character anywhere and it is a page's tool, marked.
 */
export function isOwnPageTool(tool: { name: string }): boolean {
  const base = tool.name.startsWith('tabmcp_') ? tool.name.slice('tabmcp_'.length) : tool.name;
  if (!Object.hasOwn(OWN_PAGE_TOOLS, base)) return false;
  return sameJson({ ...tool, name: base }, ownPageTool(base as OwnPageToolName));
}

/** JSON equality, whatever the order of the keys (a tool's fields may be reordered on the way). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every(
    (key) =>
      Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
