import { type CallToolResult, ErrorCode, errorMessage, ProtocolError, type Tool } from '@tabmcp/protocol';
import { checkPageArguments } from './page-arguments';
import { errorResult } from './tool-definition';
import {
  FAULTY_TOOL_HINT,
  invalidPageArguments,
  LINK_DROPPED_HINT,
  PAGE_BUSY_HINT,
  pageToolFailed,
  TAB_GONE_HINT,
} from './tool-errors';
import type { ToolSession } from './tool-session';

/** The refusal for arguments that do not fit a page tool's schema, with the schema to fix them by. */
export function pageArgumentsError(tool: string, schema: object, args: unknown): CallToolResult | undefined {
  const problems = checkPageArguments(schema, args);
  return problems.length > 0 ? errorResult(invalidPageArguments(tool, problems, schema)) : undefined;
}

/** A page tool of tab `tabId`, its arguments checked first; a failure says what to do next. */
export async function callPageTool(
  session: ToolSession,
  tabId: number,
  tool: Tool,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const refused = pageArgumentsError(tool.name, tool.inputSchema, args);
  if (refused) return refused;
  try {
    return await session.connection.callTool(tabId, tool.name, args, session.timings.pageToolTimeoutMs);
  } catch (error) {
    const hint =
      error instanceof ProtocolError && error.code === ErrorCode.BrowserNotConnected
        ? LINK_DROPPED_HINT
        : errorMessage(error).includes('not a tool result')
          ? FAULTY_TOOL_HINT
          : session.tabs.has(tabId)
            ? PAGE_BUSY_HINT
            : TAB_GONE_HINT;
    return errorResult(pageToolFailed(tool.name, tabId, errorMessage(error), hint));
  }
}
