import { z } from 'zod';
import { callPageTool } from '../page-call';
import { defineTool, errorResult, jsonResult } from '../tool-definition';
import { NO_FOCUSED_TAB, noSuchPageTool } from '../tool-errors';

/** `--fallback-tools`: the focused page's tools behind two stable names, for clients that never refresh their list. */
export const fallbackTools = [
  defineTool({
    name: 'list_page_tools',
    offeredIn: ['TAB_FOCUSED'],
    title: 'List the focused page tools',
    description:
      "List the focused tab's own tools with their input schemas, for clients that do not refresh their tool list. Call them with call_page_tool.",
    input: z.object({}).strict(),
    annotations: { readOnlyHint: true, idempotentHint: true },
    handler: async (_args, session) =>
      jsonResult({ focusedTabId: session.focusedTabId, tools: session.focusedPageTools() }),
  }),
  defineTool({
    name: 'call_page_tool',
    offeredIn: ['TAB_FOCUSED'],
    title: 'Call a tool of the focused page',
    description: 'Call one of the tools list_page_tools shows, by name, with its arguments.',
    input: z
      .object({
        name: z.string().min(1).describe('Tool name as list_page_tools shows it'),
        arguments: z.record(z.string(), z.unknown()).default({}).describe("The tool's arguments"),
      })
      .strict(),
    handler: async ({ name, arguments: args }, session, progress) => {
      if (session.focusedTabId === null) return errorResult(NO_FOCUSED_TAB);
      const page = session.pageTools.find((entry) => entry.exposedName === name);
      if (!page)
        return errorResult(
          noSuchPageTool(
            name,
            session.pageTools.map((entry) => entry.exposedName),
          ),
        );
      return callPageTool(session, session.focusedTabId, page.tool, args, progress);
    },
  }),
];
