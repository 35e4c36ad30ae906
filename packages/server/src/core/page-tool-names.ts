import type { Tool } from '@tabmcp/protocol';

/** Claude's API accepts `^[a-zA-Z0-9_-]{1,64}$`; the MCP spec allows more, so we use the strictest. */
const MAX_NAME_LENGTH = 64;

export interface ExposedPageTool {
  exposedName: string;
  tool: Tool;
}

/**
 * Maps a page's tool names to names every MCP client accepts, unique and never shadowing a core
 * tool. Page text is untrusted: the description says which origin it came from.
 */
export function exposePageTools(tools: Tool[], reserved: ReadonlySet<string>): ExposedPageTool[] {
  const taken = new Set(reserved);
  return tools.map((tool) => {
    let base = tool.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_NAME_LENGTH) || 'tool';
    if (reserved.has(base)) base = `page_${base}`.slice(0, MAX_NAME_LENGTH);
    let exposedName = base;
    for (let n = 2; taken.has(exposedName); n++) {
      const suffix = `_${n}`;
      exposedName = `${base.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(exposedName);
    return { exposedName, tool };
  });
}

export function describePageTool(tool: Tool, origin: string): string {
  const text = tool.description?.trim() || tool.title || tool.name;
  return `[page tool from ${origin}] ${text}`;
}

export function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  } catch {
    return 'an unknown page';
  }
}
