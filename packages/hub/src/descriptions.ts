import { cleanPageLine, cleanPageText, MAX_DESCRIPTION_LENGTH, type Tool, withoutDocument } from '@tabmcp/protocol';

export interface DescriptionContext {
  origin: string;
  ordinal: number | undefined;
  active: boolean;
  /** For a cached tool whose tab is closed: where a call reopens it. */
  reopenUrl?: string;
}

/**
 * docs/requirements.md#hub's DescriptionBuilder: the page's text (untrusted, so marked with its origin) behind a
 * header with the domain, the tab and whether that tab is the active one.
 */
export function describeHubTool(tool: Tool, context: DescriptionContext): string {
  const text = tool.description?.trim() || tool.title || tool.name;
  const where =
    context.ordinal === undefined
      ? `cached, no open tab; a call opens ${context.reopenUrl ?? context.origin}`
      : `tab ${context.ordinal}${context.active ? ' • active' : ''}`;
  // Cut after the marker is added: the marked text must still fit the link's description cap.
  const marked = `[page ${cleanPageLine(context.origin)}, ${where}] ${cleanPageText(text)}`;
  return marked.length <= MAX_DESCRIPTION_LENGTH ? marked : `${marked.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
}

/**
 * The page's tool as agents see it under a hub name: every page-written text that a client may
 * show (description, title, annotations.title) cleaned and tied to its origin; schemas untouched.
 */
export function presentHubTool(tool: Tool, name: string, context: DescriptionContext): Tool {
  // Which document a tool came from is for the tab's own calls, not the agent's to read.
  const presented: Tool = { ...withoutDocument(tool), name, description: describeHubTool(tool, context) };
  if (tool.title !== undefined) presented.title = markTitle(tool.title, context.origin);
  if (tool.annotations?.title !== undefined) {
    presented.annotations = { ...tool.annotations, title: markTitle(tool.annotations.title, context.origin) };
  }
  return presented;
}

function markTitle(title: string, origin: string): string {
  return `${cleanPageLine(title).slice(0, 256)} (from ${cleanPageLine(origin)})`;
}
