import type { CallToolResult, Tool } from '@tabmcp/protocol';

/** A tool derived from the page's DOM: what the agent sees, and how to run it on this page. */
export interface DomTool {
  tool: Tool;
  /** False once the elements it drives left the document (the page re-rendered). */
  isLive(): boolean;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
}

export function jsonResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value,
    ...(isError ? { isError: true } : {}),
  };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
