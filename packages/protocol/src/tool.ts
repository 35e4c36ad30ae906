// zod/mini, not classic: the content script, which runs on every page the user opens, bundles this
// file, and mini is tree-shaken where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';

/**
 * An MCP tool as a page publishes it. Unknown fields pass through untouched so a tool's schema,
 * annotations, title and output schema reach the MCP client whole (docs/requirements.md#founding-decisions, decision 2).
 */
export const JsonSchemaObject = z.looseObject({ type: z.literal('object') });

export const ToolAnnotations = z.looseObject({
  title: z.optional(z.string()),
  readOnlyHint: z.optional(z.boolean()),
  destructiveHint: z.optional(z.boolean()),
  idempotentHint: z.optional(z.boolean()),
  openWorldHint: z.optional(z.boolean()),
  /** docs/requirements.md#hub: a cached tool survives its tab's close. */
  cache: z.optional(z.boolean()),
});

export const Tool = z.looseObject({
  name: z.string().check(z.minLength(1), z.maxLength(256)),
  title: z.optional(z.string().check(z.maxLength(1024))),
  description: z.optional(z.string().check(z.maxLength(16_384))),
  inputSchema: JsonSchemaObject,
  outputSchema: z.optional(JsonSchemaObject),
  annotations: z.optional(ToolAnnotations),
});
export type Tool = z.infer<typeof Tool>;

export const ToolList = z.array(Tool).check(z.maxLength(5_000));

const TextContent = z.looseObject({ type: z.literal('text'), text: z.string() });
const OtherContent = z.looseObject({ type: z.string() });

export const CallToolResult = z.looseObject({
  content: z._default(z.array(z.union([TextContent, OtherContent])), []),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
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
