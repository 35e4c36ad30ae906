import {
  HUB_TOOL_PREFIX,
  jsonShapeProblem,
  MAX_TAB_TOOL_BYTES,
  MAX_TOOL_NAME_LENGTH,
  MAX_TOOLS_PER_TAB,
  serializedSize,
  Tool,
  validate,
} from '@tabmcp/protocol';

export interface CheckedTools {
  accepted: Tool[];
  rejected: Array<{ name: string; reason: string }>;
}

export interface ToolLimits {
  count: number;
  bytes: number;
}

const TAB_TOOL_LIMITS: ToolLimits = { count: MAX_TOOLS_PER_TAB, bytes: MAX_TAB_TOOL_BYTES };

/**
 * What the hub accepts of a page's list, tool by tool: a valid definition, a name that can become
 * an MCP tool name (printable, no spaces, not the hub's prefix), one definition per name (the last
 * wins, as a page re-registering a tool means to replace it), and no more than the per-tab count
 * and UTF-8 bytes. Whatever is refused gets a reason, so nothing disappears silently.
 */
export function checkTools(tools: readonly unknown[], limits: ToolLimits = TAB_TOOL_LIMITS): CheckedTools {
  const byName = new Map<string, Tool>();
  const rejected: CheckedTools['rejected'] = [];
  for (const [index, raw] of tools.entries()) {
    const shape = jsonShapeProblem(raw);
    if (shape) {
      rejected.push({ name: nameOf(raw, index), reason: `the definition is not plain JSON: ${shape}` });
      continue;
    }
    const parsed = validate(Tool, raw, `tool #${index + 1}`);
    if (!parsed.ok) {
      rejected.push({ name: nameOf(raw, index), reason: parsed.error.message.slice(0, 300) });
      continue;
    }
    const tool = parsed.value;
    if (!/^[^\s\p{C}]+$/u.test(tool.name)) {
      rejected.push({
        name: tool.name.slice(0, MAX_TOOL_NAME_LENGTH),
        reason: 'the name must be printable, without spaces',
      });
      continue;
    }
    if (tool.name.toLowerCase().startsWith(HUB_TOOL_PREFIX)) {
      rejected.push({ name: tool.name, reason: `names starting with "${HUB_TOOL_PREFIX}" are reserved for the hub` });
      continue;
    }
    if (byName.has(tool.name)) {
      rejected.push({ name: tool.name, reason: 'registered twice by the page; the last definition is kept' });
      byName.delete(tool.name);
    }
    byName.set(tool.name, tool);
  }
  const accepted: Tool[] = [];
  let bytes = 0;
  for (const tool of byName.values()) {
    const size = serializedSize(tool);
    if (accepted.length >= limits.count) {
      rejected.push({ name: tool.name, reason: `a tab may offer at most ${limits.count} tools` });
    } else if (bytes + size > limits.bytes) {
      rejected.push({ name: tool.name, reason: `a tab's tools may take at most ${limits.bytes} bytes (UTF-8)` });
    } else {
      accepted.push(tool);
      bytes += size;
    }
  }
  return { accepted, rejected };
}

export function isCached(tool: Tool): boolean {
  return tool.annotations?.cache === true;
}

function nameOf(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.slice(0, MAX_TOOL_NAME_LENGTH) : `#${index + 1}`;
}
