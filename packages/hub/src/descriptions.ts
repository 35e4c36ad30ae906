import type { Tool } from '@tabmcp/protocol';

export interface DescriptionContext {
  origin: string;
  ordinal: number | undefined;
  active: boolean;
  /** For a cached tool whose tab is closed: where a call reopens it. */
  reopenUrl?: string;
}

/**
 * mcp-b.md's DescriptionBuilder: the page's text (untrusted, so marked with its origin) behind a
 * header with the domain, the tab and whether that tab is the active one.
 */
export function describeHubTool(tool: Tool, context: DescriptionContext): string {
  const text = tool.description?.trim() || tool.title || tool.name;
  const where =
    context.ordinal === undefined
      ? `cached, no open tab; a call opens ${context.reopenUrl ?? context.origin}`
      : `tab ${context.ordinal}${context.active ? ' • active' : ''}`;
  return `[page tool from ${context.origin}, ${where}] ${text}`;
}
