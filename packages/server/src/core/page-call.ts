import { type CallToolResult, ErrorCode, errorMessage, mayHaveRun, ProtocolError, type Tool } from '@tabmcp/protocol';
import { checkPageArguments } from './page-arguments';
import { sayingWhenWaiting } from './person-wait';
import { errorResult, type Progress } from './tool-definition';
import {
  FAULTY_TOOL_HINT,
  invalidPageArguments,
  LINK_DROPPED_HINT,
  PAGE_ERROR_HINT,
  PAGE_NOT_READY_HINT,
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
  progress: Progress,
): Promise<CallToolResult> {
  const refused = pageArgumentsError(tool.name, tool.inputSchema, args);
  if (refused) return refused;
  try {
    // The call names the page whose tools the agent saw: a page loaded since refuses it (seen-documents.ts).
    const result = await sayingWhenWaiting(progress, (onWaiting) =>
      session.connection.callTool(
        tabId,
        tool.name,
        session.documents.carry(tabId, args),
        session.timings.pageToolTimeoutMs,
        onWaiting,
      ),
    );
    return session.tabAnswered(tabId, result);
  } catch (error) {
    return errorResult(
      pageToolFailed(tool.name, tabId, errorMessage(error), hintFor(error, tool.name, session, tabId)),
    );
  }
}

/**
 * What to do next, read off the error's code (errors.ts), never its words. A call that may have
 * reached the page (lost mid-call, timed out, link dropped) is never answered with "try again".
 */
function hintFor(error: unknown, tool: string, session: ToolSession, tabId: number): string {
  const code = error instanceof ProtocolError ? error.code : undefined;
  switch (code) {
    case ErrorCode.PageLostMidCall:
    case ErrorCode.RequestTimeout:
      return mayHaveRun(tool);
    case ErrorCode.BrowserNotConnected:
      return LINK_DROPPED_HINT;
    case ErrorCode.FaultyToolResult:
      return FAULTY_TOOL_HINT;
    case ErrorCode.TabNotFound:
      return session.tabs.has(tabId) ? PAGE_NOT_READY_HINT : TAB_GONE_HINT;
    default:
      return PAGE_ERROR_HINT;
  }
}
