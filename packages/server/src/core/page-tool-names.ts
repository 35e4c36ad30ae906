import {
  cleanPageLine,
  cleanPageText,
  HUB_TOOL_PREFIX,
  isOwnPageTool,
  MAX_DESCRIPTION_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  type Tool,
  withoutDocument,
} from '@tabmcp/protocol';

export interface ExposedPageTool {
  exposedName: string;
  tool: Tool;
}

// The hub's names (`website_tool_<domain>_tab<N>_<name>`): a page tool may not pass for one.
export { HUB_TOOL_PREFIX } from '@tabmcp/protocol';

// `[page <origin>] `: short, as it heads every page tool of every list; page text cannot fake `[page`.
const PAGE_TOOL_MARK = '[page ';

/**
 * Maps a page's tool names to names every MCP client accepts, unique and never shadowing a core
 * tool or a hub name. Page text is untrusted: the description says which origin it came from.
 */
export function exposePageTools(tools: Tool[], reserved: ReadonlySet<string>): ExposedPageTool[] {
  const taken = new Set(reserved);
  return tools.map((tool) => {
    let base = tool.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_NAME_LENGTH) || 'tool';
    if (reserved.has(base) || base.toLowerCase().startsWith(HUB_TOOL_PREFIX)) {
      base = `page_${base}`.slice(0, MAX_TOOL_NAME_LENGTH);
    }
    let exposedName = base;
    for (let n = 2; taken.has(exposedName); n++) {
      const suffix = `_${n}`;
      exposedName = `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(exposedName);
    return { exposedName, tool };
  });
}

function describePageTool(tool: Tool, origin: string): string {
  const text = tool.description?.trim() || tool.title || tool.name;
  const marked = `${PAGE_TOOL_MARK}${cleanPageLine(origin)}] ${cleanPageText(text)}`;
  return marked.length <= MAX_DESCRIPTION_LENGTH ? marked : `${marked.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
}

/**
 * A page tool as the focused view lists it: every page-written text a client may show (description,
 * title, annotations.title) cleaned and tied to its origin; schemas untouched. One of tabmcp's own
 * page tools to the letter (get_page_content, act…) holds no page text, so it goes unmarked: the mark
 * would cost 31 bytes a tool at every list and set apart nothing.
 */
export function presentPageTool(tool: Tool, exposedName: string, origin: string): Tool & { description: string } {
  // Which document the tool came from is the server's to remember, not the agent's to read.
  const bare = withoutDocument(tool);
  if (isOwnPageTool(bare)) return { ...bare, name: exposedName, description: bare.description ?? '' };
  const presented: Tool & { description: string } = {
    ...bare,
    name: exposedName,
    description: describePageTool(tool, origin),
  };
  const mark = (title: string) => `${cleanPageLine(title).slice(0, 256)} (from ${cleanPageLine(origin)})`;
  if (tool.title !== undefined) presented.title = mark(tool.title);
  if (tool.annotations?.title !== undefined)
    presented.annotations = { ...tool.annotations, title: mark(tool.annotations.title) };
  return presented;
}

/**
 * A page tool in the session's list: its description starts with our marker (page text cannot fake
 * it), or it is one of tabmcp's own page tools, listed unmarked (presentPageTool).
 */
export function isListedPageTool(tool: { name: string; description?: string | undefined }): boolean {
  return tool.description?.startsWith(PAGE_TOOL_MARK) === true || isOwnPageTool(tool);
}

export function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  } catch {
    return 'an unknown page';
  }
}
