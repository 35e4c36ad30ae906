/** Claude's API accepts `^[a-zA-Z0-9_-]{1,64}$`; the MCP spec allows more, so we use the strictest. */
export const MAX_TOOL_NAME_LENGTH = 64;
const PREFIX = 'website_tool_';

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** FNV-1a, 32 bits: a short stable tag that keeps shortened names apart. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(7, '0').slice(0, 6);
}

/**
 * mcp-b.md's names: `website_tool_<domain>_tab<N>_<name>` for a tab's tool, and
 * `website_tool_<domain>_<name>` for a cached tool whose tab is gone. Names that would exceed 64
 * characters keep their start and gain a hash of the full name; `taken` makes them unique.
 */
export function hubToolName(domain: string, ordinal: number | undefined, toolName: string, taken: Set<string>): string {
  const full = `${PREFIX}${safe(domain)}_${ordinal === undefined ? '' : `tab${ordinal}_`}${safe(toolName)}`;
  let name =
    full.length <= MAX_TOOL_NAME_LENGTH ? full : `${full.slice(0, MAX_TOOL_NAME_LENGTH - 7)}_${shortHash(full)}`;
  const base = name;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}
