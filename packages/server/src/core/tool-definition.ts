import type { CallToolResult } from '@tabmcp/protocol';
import { z } from 'zod';
import { invalidArguments } from './tool-errors';
import type { SessionState, ToolSession } from './tool-session';

/**
 * A word to the agent mid-call (MCP progress when its request carries a progressToken). `waiting`:
 * the call waits for the person, which a client without a token hears too, as a log line;
 * `still waiting`: the same again, for clients that reset their timeout on progress.
 */
export type Progress = (message: string, kind?: 'step' | 'waiting' | 'still waiting') => void;

type ObjectSchema = { type: 'object'; [key: string]: unknown };

/** A tool as an MCP client is shown it. */
export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema?: ObjectSchema;
  annotations?: Record<string, unknown>;
}

type ToolAnnotations = {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** A core tool as data: its listing, derived from one zod schema, and the handler behind it. */
export interface CoreTool {
  readonly listed: ListedTool;
  /** What the handler accepts; `listed.inputSchema` is derived from it. */
  readonly input: z.ZodObject;
  /** The states that offer it (docs/requirements.md, "Tool Availability by State"). */
  readonly offeredIn: ReadonlySet<SessionState>;
  /** It moves the state machine: what changes while it runs is announced once, when it ends. */
  readonly transition: boolean;
  /** Listed only while the focused tab has a dialog an answer showed (handle_dialog); callable in every state that offers it. */
  readonly listedWhileDialogWaits: boolean;
  /** Checks the arguments against the zod schema, then runs the handler with them typed. */
  run(args: Record<string, unknown>, session: ToolSession, progress: Progress): Promise<CallToolResult>;
}

export function defineTool<Input extends z.ZodObject>(spec: {
  name: string;
  title: string;
  description: string;
  input: Input;
  offeredIn: readonly SessionState[];
  /** Set for tools that move the state machine (connect, open, focus, close). */
  transition?: boolean;
  /** Set for handle_dialog: it makes sense only while an answer showed a dialog (docs/decisions.md, 353). */
  listedWhileDialogWaits?: boolean;
  /** Only what differs from MCP's defaults (readOnly false, destructive true, idempotent false, open world true). */
  annotations?: ToolAnnotations;
  handler(args: z.output<Input>, session: ToolSession, progress: Progress): Promise<CallToolResult>;
}): CoreTool {
  const { name, title, description, input, annotations, handler } = spec;
  return {
    offeredIn: new Set(spec.offeredIn),
    transition: spec.transition ?? false,
    listedWhileDialogWaits: spec.listedWhileDialogWaits ?? false,
    listed: {
      name,
      title,
      description,
      inputSchema: advertisedSchema(input),
      ...(annotations && Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    input,
    run: async (args, session, progress) => {
      const parsed = input.safeParse(args);
      if (parsed.success) return handler(parsed.data, session, progress);
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
      // The listed schema leaves out additionalProperties: an unknown name is answered with the known ones.
      if (parsed.error.issues.some((issue) => issue.code === 'unrecognized_keys'))
        problems.push(`${name} takes: ${Object.keys(input.shape).join(', ') || 'no arguments'}`);
      return errorResult(invalidArguments(name, problems));
    },
  };
}

/**
 * The JSON Schema a client sees, derived from the zod schema so the two cannot drift. The list is
 * sent on every change, so what says nothing is left out: `$schema` (MCP's default dialect), the
 * safe-integer bounds zod adds to every `int()`, a record's string keys and any-value `{}`, and
 * `additionalProperties: false`, since the strict zod schema refuses an unknown name with an error
 * that lists the known ones (as the DOM-derived tools do).
 */
function advertisedSchema(input: z.ZodObject): ObjectSchema {
  const schema = z.toJSONSchema(input, {
    io: 'input',
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.additionalProperties === false || isEmpty(jsonSchema.additionalProperties))
        delete jsonSchema.additionalProperties;
      const keys = jsonSchema.propertyNames;
      if (typeof keys === 'object' && keys.type === 'string' && Object.keys(keys).length === 1) {
        delete jsonSchema.propertyNames;
      }
    },
  });
  delete schema.$schema;
  return { ...schema, type: 'object' };
}

function isEmpty(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && Object.keys(schema).length === 0;
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
