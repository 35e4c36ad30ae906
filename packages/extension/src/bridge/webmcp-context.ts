import type { CallToolResult, JsonObject, ToolDescriptor } from '@tabmcp/page';

/**
 * The W3C WebMCP API as the bridge sees it: Chrome's native `document.modelContext`, the
 * `@mcp-b/webmcp-polyfill`, or `@mcp-b/global`'s `BrowserMcpServer`, with `navigator.modelContext`
 * as the older alias. Tools are read with `getTools()` (or MCP-B's richer `listTools()`) and run
 * with `executeTool()`, so the page's own registrations stay untouched.
 */
interface RegisteredTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: JsonObject;
}

export interface ModelContextLike extends EventTarget {
  getTools(): Promise<RegisteredTool[]>;
  executeTool(tool: RegisteredTool, input: unknown): Promise<unknown>;
  listTools?: () => RegisteredTool[];
}

function isModelContext(value: unknown): value is ModelContextLike {
  const record = value as Record<string, unknown> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.getTools === 'function' &&
    typeof record.executeTool === 'function' &&
    typeof record.addEventListener === 'function'
  );
}

/** Reading the getters can throw (a polyfill's own checks): that page simply has no WebMCP for us. */
export function findModelContext(): ModelContextLike | undefined {
  for (const read of [
    () => (document as { modelContext?: unknown }).modelContext,
    () => (navigator as { modelContext?: unknown }).modelContext,
  ]) {
    try {
      const context = read();
      if (isModelContext(context)) return context;
    } catch {
      // not available here
    }
  }
  return undefined;
}

function parseSchema(schema: unknown): JsonObject | undefined {
  let value = schema;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export async function listWebMcpTools(context: ModelContextLike): Promise<ToolDescriptor[]> {
  const tools = typeof context.listTools === 'function' ? context.listTools() : await context.getTools();
  const descriptors: ToolDescriptor[] = [];
  for (const tool of Array.isArray(tools) ? tools : []) {
    if (typeof tool?.name !== 'string' || tool.name === '') continue;
    const input = parseSchema(tool.inputSchema) ?? { type: 'object', properties: {} };
    if (input.type !== 'object') continue;
    const output = parseSchema(tool.outputSchema);
    descriptors.push({
      name: tool.name,
      ...(tool.title ? { title: String(tool.title) } : {}),
      description: String(tool.description ?? ''),
      inputSchema: input as ToolDescriptor['inputSchema'],
      ...(output?.type === 'object' ? { outputSchema: output as ToolDescriptor['inputSchema'] } : {}),
      ...(tool.annotations && typeof tool.annotations === 'object' ? { annotations: { ...tool.annotations } } : {}),
    });
  }
  return descriptors;
}

/**
 * Chrome 149-153 and the MCP-B polyfills take the arguments as a JSON string, Chrome 156 as an
 * object. Both refuse the other form before running the tool, so a second try is safe.
 */
async function execute(context: ModelContextLike, tool: RegisteredTool, args: JsonObject): Promise<unknown> {
  const marked = context as unknown as Record<string, unknown>;
  const wantsString = marked.__isWebMCPPolyfill === true || marked.__isBrowserMcpServer === true;
  const forms: unknown[] = wantsString ? [JSON.stringify(args), args] : [args, JSON.stringify(args)];
  try {
    return await context.executeTool(tool, forms[0]);
  } catch (error) {
    if (!/input|parse|not an object|string/i.test(error instanceof Error ? error.message : String(error))) throw error;
    return context.executeTool(tool, forms[1]);
  }
}

/** executeTool answers with the tool's result serialised as JSON, or a plain string. */
export async function callWebMcpTool(
  context: ModelContextLike,
  name: string,
  args: JsonObject,
): Promise<CallToolResult> {
  const registered = (await context.getTools()).find((tool) => tool.name === name);
  if (!registered) throw new Error(`The page no longer offers the WebMCP tool "${name}"`);
  const raw = await execute(context, registered, args);
  if (raw === null || raw === undefined) return { content: [{ type: 'text', text: 'Done.' }] };
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  try {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (Array.isArray((parsed as CallToolResult | null)?.content)) return parsed as CallToolResult;
  } catch {
    // a plain string result
  }
  return { content: [{ type: 'text', text }] };
}
