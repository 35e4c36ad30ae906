import type { Tool } from '@tabmcp/protocol';

export interface CheckedTools {
  accepted: Tool[];
  rejected: Array<{ name: string; reason: string }>;
}

/**
 * What the hub accepts beyond the message schema: a name that can become an MCP tool name
 * (printable, no spaces) and one definition per name (the last one wins, as a page re-registering
 * a tool means to replace it).
 */
export function checkTools(tools: readonly Tool[]): CheckedTools {
  const byName = new Map<string, Tool>();
  const rejected: CheckedTools['rejected'] = [];
  for (const tool of tools) {
    if (!/^[^\s\p{C}]+$/u.test(tool.name)) {
      rejected.push({ name: tool.name.slice(0, 64), reason: 'the name must be printable, without spaces' });
      continue;
    }
    if (byName.has(tool.name)) {
      rejected.push({ name: tool.name, reason: 'registered twice by the page; the last definition is kept' });
      byName.delete(tool.name);
    }
    byName.set(tool.name, tool);
  }
  return { accepted: [...byName.values()], rejected };
}

export function isCached(tool: Tool): boolean {
  return tool.annotations?.cache === true;
}
