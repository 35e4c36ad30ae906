import { z } from 'zod';

/**
 * An MCP tool as a page publishes it. Unknown fields pass through untouched so a tool's schema,
 * annotations, title and output schema reach the MCP client whole (docs/requirements.md#founding-decisions, decision 2).
 */
export const JsonSchemaObject = z.looseObject({ type: z.literal('object') });

export const ToolAnnotations = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
  /** docs/requirements.md#hub: a cached tool survives its tab's close. */
  cache: z.boolean().optional(),
});

export const Tool = z.looseObject({
  name: z.string().min(1).max(256),
  title: z.string().max(1024).optional(),
  description: z.string().max(16_384).optional(),
  inputSchema: JsonSchemaObject,
  outputSchema: JsonSchemaObject.optional(),
  annotations: ToolAnnotations.optional(),
});
export type Tool = z.infer<typeof Tool>;

export const ToolList = z.array(Tool).max(5_000);

const TextContent = z.looseObject({ type: z.literal('text'), text: z.string() });
const OtherContent = z.looseObject({ type: z.string() });

export const CallToolResult = z.looseObject({
  content: z.array(z.union([TextContent, OtherContent])).default([]),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});
export type CallToolResult = z.infer<typeof CallToolResult>;

export const ToolArguments = z.record(z.string(), z.unknown());
export type ToolArguments = z.infer<typeof ToolArguments>;

/**
 * What a page answered, as a CallToolResult: a result with a `content` array stands as it is (the
 * schema checks it); anything else a page's own code returned (an object, a string, a number) is
 * the text of the result, so the agent sees it instead of an empty answer.
 */
export function asCallToolResult(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content))
    return value;
  if (value === undefined) return { content: [] };
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

export function textResult(text: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}
