import {
  asCallToolResult,
  documentOf,
  newDocumentId,
  type Tool,
  takeDocumentArgument,
  withDocument,
} from '@tabmcp/protocol';
import { NAVIGATING_META } from '../navigation-meta';

/**
 * This document's id (docs/dom-tools.md, "Which page a call is for"): written into every tool it
 * publishes and every answer it gives, and checked against the id a call carries. A page kept in
 * the back/forward cache keeps its content script, and so its id.
 */
const THIS_DOCUMENT = newDocumentId();

/** The tools of this document's list, each marked with its id. */
export function markedTools(tools: Tool[]): Tool[] {
  return tools.map((tool) => withDocument(tool, THIS_DOCUMENT));
}

/**
 * Runs a tools/call made for this document. A call whose list came from another document (the tab
 * loaded a new page since the agent read it) is refused before any tool sees it: the next page's
 * tool of the same name is not the one the agent chose. A call that carries no id (a client that
 * never listed this tab's tools) runs as it always did. The answer says which document gave it,
 * unless the call started loading another page: the background then reports the new one.
 */
export async function callForThisDocument(
  params: unknown,
  run: (params: { name: unknown; arguments: Record<string, unknown> }) => Promise<unknown>,
): Promise<unknown> {
  const { name, arguments: given } = (params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
  const { document: listedFor, args } = takeDocumentArgument(given ?? {});
  if (listedFor !== undefined && listedFor !== THIS_DOCUMENT) {
    return withDocument(
      {
        content: [
          {
            type: 'text',
            text: `The page changed since the tool list was read: "${String(name)}" was listed for the page before, and nothing ran. The new page's tools are listed now: list the tools again, or call "${String(name)}" again to run the new page's.`,
          },
        ],
        isError: true,
      },
      THIS_DOCUMENT,
    );
  }
  const answer = asCallToolResult(await run({ name, arguments: args }));
  if (typeof answer !== 'object' || answer === null) return answer;
  const meta = (answer as { _meta?: Record<string, unknown> })._meta;
  if (meta?.[NAVIGATING_META] !== undefined) return answer;
  return documentOf(answer) === THIS_DOCUMENT ? answer : withDocument(answer, THIS_DOCUMENT);
}
