import type { CallToolResult } from '@tabmcp/protocol';
import type { z } from 'zod';

export type Progress = (message: string) => void;

/** A tool as data: what the MCP client sees, plus the handler that runs it. */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  run(args: z.infer<S>, progress: Progress): Promise<CallToolResult>;
}

export function jsonResult(value: unknown, isError = false): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(value) }] };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    result.structuredContent = value as Record<string, unknown>;
  }
  if (isError) result.isError = true;
  return result;
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
