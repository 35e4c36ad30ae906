/**
 * Rules more than one package applies, defined once here so they cannot drift apart (issue 29):
 * the hub's tool names, the length every tool name keeps to, how long a page may take to load,
 * and which URLs an agent may open.
 */

/** The hub owns `website_tool_<domain>_…` (docs/requirements.md#hub); no page tool may take a name that passes for one. */
export const HUB_TOOL_PREFIX = 'website_tool_';

/** Claude's API accepts `^[a-zA-Z0-9_-]{1,64}$`; the MCP spec allows more, so tool names keep to the strictest. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** How long the extension waits for an opened or navigated page to load; the server's waits allow for it. */
export const PAGE_LOAD_BUDGET_MS = 30_000;

/** What the URL policy lets an agent open, in words for its refusals and tool descriptions. */
export const OPENABLE_URLS = 'http:, https:, file: and data: URLs, and about:blank';

const OPENABLE_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'file:', 'data:']);

/**
 * Agents open web pages, never the browser's own: `about:settings`, `about:flags` and the like are
 * `chrome://` pages in disguise, so of `about:` only `about:blank` is allowed, and `chrome:`,
 * `javascript:` and other schemes not at all. Both the server and the extension check this.
 */
export function isOpenableUrl(url: URL): boolean {
  return OPENABLE_SCHEMES.has(url.protocol) || url.href === 'about:blank';
}
