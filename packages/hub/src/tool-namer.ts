import { HUB_TOOL_PREFIX, MAX_TOOL_NAME_LENGTH } from '@tabmcp/protocol';

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
 * A page name `safe` changes could meet another's (`cart.add` and `cart_add`, two non-Latin names):
 * it carries a tag of its raw form, so which tool a hub name runs never depends on the order of
 * the page's list, nor on which other tools it lists (issue 27 H5).
 */
function ownName(toolName: string): string {
  const cleaned = safe(toolName);
  return cleaned === toolName ? cleaned : `${cleaned}_${shortHash(toolName)}`;
}

/**
 * docs/requirements.md#hub's names: `website_tool_<domain>_tab<N>_<name>` for a tab's tool, and
 * `website_tool_<domain>_<name>` for a cached tool whose tab is gone. Names that would exceed 64
 * characters keep their start and gain a hash of the full name; `taken` makes them unique.
 */
export function hubToolName(domain: string, ordinal: number | undefined, toolName: string, taken: Set<string>): string {
  const full = `${HUB_TOOL_PREFIX}${safe(domain)}_${ordinal === undefined ? '' : `tab${ordinal}_`}${ownName(toolName)}`;
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
