import { ErrorCode, jsonShapeProblem, ProtocolError, withTimeout } from '@tabmcp/protocol/light';
import { type JsonSchema, validateJsonSchema } from './json-schema';
import {
  type ArgumentCheck,
  fromObjectSchema,
  fromShape,
  isStandardSchema,
  type StandardSchemaLike,
} from './schema-input';
import type {
  CallToolResult,
  GetPromptResult,
  JsonObject,
  McpNotificationDetail,
  NotificationKind,
  PromptDescriptor,
  ReadResourceResult,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
  ServerCapabilities,
  ServerInfo,
  ToolDescriptor,
  WindowMcpApi,
} from './types';
import { MCP_NOTIFICATION_EVENT } from './types';

export type ToolHandler = (args: JsonObject) => unknown | Promise<unknown>;
export type ResourceReader = (
  uri: string,
  variables: Record<string, string>,
) => ReadResourceResult | Promise<ReadResourceResult>;
export type PromptHandler = (args: Record<string, string>) => GetPromptResult | Promise<GetPromptResult>;

export interface Registration {
  /** Removes what was added; calling it twice is harmless. */
  remove(): void;
}

export interface ProviderOptions {
  /** A handler that has not settled after this long gives an error result. */
  toolTimeoutMs?: number;
  /**
   * What `getCapabilities()` announces, as docs/requirements.md#page-sdk's `{ resources: true, tools: true }`: all
   * three when none is named, else only those set to true.
   */
  tools?: boolean;
  resources?: boolean;
  prompts?: boolean;
}

/**
 * What `addTool` takes: a `ToolDescriptor` whose `inputSchema` is a JSON Schema or a zod object
 * schema, or docs/requirements.md#page-sdk's `inputSchemaDef` (a shape of zod field schemas). No schema means no
 * arguments.
 */
export type ToolDefinition = Omit<ToolDescriptor, 'inputSchema' | 'outputSchema'> & {
  inputSchema?: ToolDescriptor['inputSchema'] | StandardSchemaLike;
  inputSchemaDef?: Record<string, StandardSchemaLike>;
  outputSchema?: ToolDescriptor['outputSchema'] | StandardSchemaLike;
};

interface ToolEntry {
  descriptor: ToolDescriptor;
  handler: ToolHandler;
  check: ArgumentCheck | undefined;
}

interface ResourceEntry {
  descriptor: ResourceDescriptor | ResourceTemplateDescriptor;
  match: (uri: string) => Record<string, string> | undefined;
  read: ResourceReader;
}

const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/**
 * The page side of docs/requirements.md#page-sdk: tools, resources and prompts with their handlers, exposed as a
 * `WindowMcpApi`. Change notifications are coalesced per task, so registering fifty tools in one
 * go fires one `toolsListChanged`.
 */
export class McpWindowProvider extends EventTarget implements WindowMcpApi {
  readonly #info: ServerInfo;
  readonly #toolTimeoutMs: number;
  readonly #capabilities: ServerCapabilities;
  readonly #tools = new Map<string, ToolEntry>();
  readonly #resources = new Map<string, ResourceEntry>();
  readonly #prompts = new Map<string, { descriptor: PromptDescriptor; handler: PromptHandler }>();
  readonly #pending = new Set<NotificationKind>();
  readonly #updatedUris = new Set<string>();
  #flushScheduled = false;

  constructor(info: ServerInfo, options: ProviderOptions = {}) {
    super();
    this.#info = { ...info };
    this.#toolTimeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    // docs/requirements.md#page-sdk passes capabilities as `{ resources: true, tools: true }`: naming some turns the others off.
    const named = [options.tools, options.resources, options.prompts].some((flag) => flag !== undefined);
    const on = (flag: boolean | undefined) => flag ?? !named;
    this.#capabilities = {
      ...(on(options.tools) ? { tools: { listChanged: true } } : {}),
      ...(on(options.resources) ? { resources: { listChanged: true, subscribe: true } } : {}),
      ...(on(options.prompts) ? { prompts: { listChanged: true } } : {}),
    };
  }

  addTool(definition: ToolDefinition, handler: ToolHandler): Registration {
    if (typeof definition?.name !== 'string' || definition.name.length === 0) {
      throw new TypeError('addTool: a tool needs a non-empty name');
    }
    if (typeof handler !== 'function')
      throw new TypeError(`addTool(${definition.name}): the handler must be a function`);
    const entry = toToolEntry(definition, handler);
    const { descriptor } = entry;
    this.#tools.set(descriptor.name, entry);
    this.#notify('toolsListChanged');
    return { remove: () => this.#removeIfSame(this.#tools, descriptor.name, entry, 'toolsListChanged') };
  }

  removeTool(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#notify('toolsListChanged');
    return removed;
  }

  addResource(descriptor: ResourceDescriptor, read: ResourceReader): Registration {
    const entry: ResourceEntry = {
      descriptor: { ...descriptor },
      match: (uri) => (uri === descriptor.uri ? {} : undefined),
      read,
    };
    return this.#addResourceEntry(descriptor.uri, entry);
  }

  /** A resource whose URI has `{variables}`, e.g. `product://{id}`. */
  addResourceTemplate(descriptor: ResourceTemplateDescriptor, read: ResourceReader): Registration {
    const entry: ResourceEntry = {
      descriptor: { ...descriptor },
      match: compileUriTemplate(descriptor.uriTemplate),
      read,
    };
    return this.#addResourceEntry(descriptor.uriTemplate, entry);
  }

  addPrompt(descriptor: PromptDescriptor, handler: PromptHandler): Registration {
    const entry = { descriptor: { ...descriptor }, handler };
    this.#prompts.set(descriptor.name, entry);
    this.#notify('promptsListChanged');
    return { remove: () => this.#removeIfSame(this.#prompts, descriptor.name, entry, 'promptsListChanged') };
  }

  /** Removes a resource by its URI, or a template by its URI template. */
  removeResource(uriOrTemplate: string): boolean {
    const removed = this.#resources.delete(uriOrTemplate);
    if (removed) this.#notify('resourcesListChanged');
    return removed;
  }

  removePrompt(name: string): boolean {
    const removed = this.#prompts.delete(name);
    if (removed) this.#notify('promptsListChanged');
    return removed;
  }

  /** Tells listeners that a resource's content changed. */
  resourceUpdated(uri: string): void {
    this.#updatedUris.add(uri);
    this.#notify('resourceUpdated');
  }

  /** Publishes the provider as `window[namespace]` (default `window.mcp`). */
  exposeOnWindow(namespace = 'mcp', target: object = globalThis): this {
    Object.defineProperty(target, namespace, { value: this, configurable: true, enumerable: true, writable: false });
    return this;
  }

  async getServerInfo(): Promise<ServerInfo> {
    return { ...this.#info };
  }

  async getCapabilities(): Promise<ServerCapabilities> {
    return structuredClone(this.#capabilities);
  }

  async listTools(): Promise<{ tools: ToolDescriptor[] }> {
    return { tools: [...this.#tools.values()].map((entry) => structuredClone(entry.descriptor)) };
  }

  async callTool(params: { name: string; arguments?: JsonObject }): Promise<CallToolResult> {
    const entry = this.#tools.get(params?.name);
    if (!entry) {
      const known = [...this.#tools.keys()].join(', ') || 'none';
      throw new ProtocolError(ErrorCode.ToolNotFound, `Unknown tool "${params?.name}". Tools on this page: ${known}`);
    }
    const { descriptor } = entry;
    let args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return errorResult(`Invalid arguments for ${descriptor.name}: arguments: expected an object of named arguments`);
    }
    // A zod schema checks for itself (refinements, defaults); the JSON Schema check covers the rest.
    const problems = entry.check ? [] : validateJsonSchema(descriptor.inputSchema as JsonSchema, args);
    if (entry.check) {
      const checked = await entry.check(args);
      if ('problems' in checked) problems.push(...checked.problems);
      else args = checked.value;
    }
    if (problems.length > 0) {
      return errorResult(
        `Invalid arguments for ${descriptor.name}: ${problems.join('; ')}. Expected input schema: ${JSON.stringify(descriptor.inputSchema)}`,
      );
    }
    let result: CallToolResult;
    try {
      const value = await runHandler(() => entry.handler(args), this.#toolTimeoutMs, descriptor.name);
      result = toCallToolResult(value, descriptor);
    } catch (error) {
      return errorResult(`${descriptor.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return checkOutput(result, descriptor);
  }

  async listResources(): Promise<{ resources: ResourceDescriptor[]; resourceTemplates: ResourceTemplateDescriptor[] }> {
    const resources: ResourceDescriptor[] = [];
    const resourceTemplates: ResourceTemplateDescriptor[] = [];
    for (const { descriptor } of this.#resources.values()) {
      if ('uriTemplate' in descriptor) resourceTemplates.push({ ...descriptor });
      else resources.push({ ...descriptor });
    }
    return { resources, resourceTemplates };
  }

  async readResource(params: { uri: string }): Promise<ReadResourceResult> {
    for (const entry of this.#resources.values()) {
      const variables = entry.match(params?.uri);
      if (variables) {
        return runHandler(() => entry.read(params.uri, variables), this.#toolTimeoutMs, `reading ${params.uri}`);
      }
    }
    throw new ProtocolError(ErrorCode.InvalidParams, `Unknown resource "${params?.uri}"`);
  }

  async listPrompts(): Promise<{ prompts: PromptDescriptor[] }> {
    return { prompts: [...this.#prompts.values()].map((entry) => ({ ...entry.descriptor })) };
  }

  async getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<GetPromptResult> {
    const entry = this.#prompts.get(params?.name);
    if (!entry) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt "${params?.name}"`);
    const args = params.arguments ?? {};
    const missing = (entry.descriptor.arguments ?? []).filter((arg) => arg.required && !(arg.name in args));
    if (missing.length > 0) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Prompt "${params.name}" needs: ${missing.map((arg) => arg.name).join(', ')}`,
      );
    }
    return runHandler(() => entry.handler(args), this.#toolTimeoutMs, `prompt ${params.name}`);
  }

  #addResourceEntry(key: string, entry: ResourceEntry): Registration {
    this.#resources.set(key, entry);
    this.#notify('resourcesListChanged');
    return { remove: () => this.#removeIfSame(this.#resources, key, entry, 'resourcesListChanged') };
  }

  #removeIfSame<V>(map: Map<string, V>, key: string, entry: V, kind: NotificationKind): void {
    if (map.get(key) !== entry) return;
    map.delete(key);
    this.#notify(kind);
  }

  #notify(kind: NotificationKind): void {
    this.#pending.add(kind);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // A macrotask, not a microtask: a page that registers in several awaited steps of one
    // start-up routine still produces one notification.
    setTimeout(() => this.#flush(), 0);
  }

  #flush(): void {
    this.#flushScheduled = false;
    const kinds = [...this.#pending];
    this.#pending.clear();
    const uris = [...this.#updatedUris];
    this.#updatedUris.clear();
    for (const kind of kinds) {
      if (kind === 'resourceUpdated') {
        for (const uri of uris) this.#dispatch({ type: kind, uri });
      } else {
        this.#dispatch({ type: kind });
      }
    }
  }

  #dispatch(detail: McpNotificationDetail): void {
    this.dispatchEvent(new CustomEvent<McpNotificationDetail>(MCP_NOTIFICATION_EVENT, { detail }));
  }
}

function toToolEntry(definition: ToolDefinition, handler: ToolHandler): ToolEntry {
  const { inputSchema, inputSchemaDef, outputSchema, ...rest } = definition;
  const where = `addTool(${definition.name})`;
  // Before any clone: a 5,000-deep schema overflows structuredClone's stack, and a DAG of shared
  // objects would be listed as gigabytes of JSON (issue 38).
  // zod schemas are left out: they are turned into JSON Schema below.
  const shape = jsonShapeProblem({
    ...rest,
    ...(isStandardSchema(inputSchema) ? {} : { inputSchema }),
    ...(isStandardSchema(outputSchema) ? {} : { outputSchema }),
  });
  if (shape) throw new TypeError(`${where}: the definition cannot travel as JSON: ${shape}`);
  let input: JsonObject = { type: 'object', properties: {} };
  let check: ArgumentCheck | undefined;
  if (inputSchemaDef) ({ json: input, check } = fromShape(inputSchemaDef, `${where}.inputSchemaDef`));
  else if (isStandardSchema(inputSchema))
    ({ json: input, check } = fromObjectSchema(inputSchema, `${where}.inputSchema`));
  else if (inputSchema) input = structuredClone(inputSchema);
  if (input.type !== 'object') throw new TypeError(`${where}: inputSchema must be a JSON Schema with type "object"`);
  const output = isStandardSchema(outputSchema)
    ? fromObjectSchema(outputSchema, `${where}.outputSchema`).json
    : outputSchema && structuredClone(outputSchema);
  if (output && output.type !== 'object') throw new TypeError(`${where}: outputSchema must have type "object"`);
  const descriptor = {
    ...structuredClone(rest),
    inputSchema: input,
    ...(output ? { outputSchema: output } : {}),
  } as ToolDescriptor;
  return { descriptor, handler, check };
}

/** MCP: a tool with an output schema must return structured content that conforms to it. */
function checkOutput(result: CallToolResult, descriptor: ToolDescriptor): CallToolResult {
  if (!descriptor.outputSchema || result.isError) return result;
  if (!result.structuredContent) {
    return errorResult(`${descriptor.name} declares an output schema but returned no structured content (page bug)`);
  }
  const problems = validateJsonSchema(descriptor.outputSchema as JsonSchema, result.structuredContent, 'result');
  if (problems.length === 0) return result;
  return errorResult(
    `${descriptor.name} returned a result that breaks its output schema (page bug): ${problems.join('; ')}`,
  );
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as CallToolResult).content);
}

/** Handlers may return a full result, a string, or any JSON value (which becomes structured content). */
function toCallToolResult(value: unknown, descriptor: ToolDescriptor): CallToolResult {
  if (isCallToolResult(value)) return value;
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined) return { content: [{ type: 'text', text: 'Done.' }] };
  const text = JSON.stringify(value);
  if (descriptor.outputSchema && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { content: [{ type: 'text', text }], structuredContent: value as JsonObject };
  }
  return { content: [{ type: 'text', text }] };
}

/**
 * Runs a page handler under the provider's timeout. Handlers may throw anything (or throw at once);
 * what comes back is always an Error.
 */
function runHandler<T>(handler: () => T | Promise<T>, ms: number, name: string): Promise<T> {
  const running = new Promise<T>((resolve) => resolve(handler())).catch((error: unknown) => {
    throw error instanceof Error ? error : new Error(`${name}: ${String(error)}`);
  });
  return withTimeout(running, {
    timeoutMs: ms,
    onTimeout: () => {
      throw new Error(`timed out after ${ms} ms`);
    },
  });
}

/** `product://{id}/reviews/{page}` → a matcher that returns `{id, page}` or undefined. */
function compileUriTemplate(template: string): (uri: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const variable = /^\{([^}]+)\}$/.exec(part);
      if (variable?.[1]) {
        names.push(variable[1]);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const regex = new RegExp(`^${pattern}$`);
  return (uri) => {
    const match = regex.exec(uri);
    if (!match) return undefined;
    return Object.fromEntries(names.map((name, index) => [name, decodeVariable(uri, name, match[index + 1] ?? '')]));
  };
}

/** A template variable's value, percent-decoded; a bad escape (`%E0%A4%A`) is the caller's to fix (D25). */
function decodeVariable(uri: string, name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `The resource URI "${uri}" has a bad percent-encoding in {${name}} ("${raw}"): encode it with encodeURIComponent.`,
    );
  }
}
