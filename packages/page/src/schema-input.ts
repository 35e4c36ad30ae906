import type { JsonObject } from './types';

/**
 * Zod (and any Standard Schema with a `toJSONSchema()` method) accepted as a convenience, without
 * importing zod: the page bundle stays small, and the schema object the author already holds
 * does the conversion and the fine-grained checks itself.
 */
interface StandardIssue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}
type StandardResult = { value: unknown; issues?: undefined } | { issues: ReadonlyArray<StandardIssue> };

export interface StandardSchemaLike {
  '~standard': { validate(value: unknown): StandardResult | Promise<StandardResult> };
  toJSONSchema?: (params?: { io?: 'input' | 'output' }) => unknown;
}

export type ArgumentCheck = (args: JsonObject) => Promise<{ value: JsonObject } | { problems: string[] }>;

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof standard?.validate === 'function';
}

function jsonSchemaOf(schema: StandardSchemaLike, where: string): JsonObject {
  if (typeof schema.toJSONSchema !== 'function') {
    throw new TypeError(`${where}: pass a JSON Schema, or a zod 4 schema (it has toJSONSchema())`);
  }
  // Input mode: a field with a default is optional for the caller.
  const { $schema: _dialect, ...json } = schema.toJSONSchema({ io: 'input' }) as JsonObject;
  return json;
}

function describePath(base: string, path: StandardIssue['path']): string {
  const keys = (path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
  return [base, ...keys].join('.');
}

async function runStandard(schema: StandardSchemaLike, value: unknown, path: string) {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { ok: true as const, value: result.value };
  return {
    ok: false as const,
    problems: result.issues.map((issue) => `${describePath(path, issue.path)}: ${issue.message}`),
  };
}

/** A zod object schema (or other Standard Schema) given as `inputSchema`. */
export function fromObjectSchema(
  schema: StandardSchemaLike,
  where: string,
): { json: JsonObject; check: ArgumentCheck } {
  const json = jsonSchemaOf(schema, where);
  if (json.type !== 'object') throw new TypeError(`${where}: the schema must describe an object`);
  return {
    json,
    check: async (args) => {
      const result = await runStandard(schema, args, 'arguments');
      return result.ok ? { value: result.value as JsonObject } : { problems: result.problems };
    },
  };
}

/** docs/requirements.md#page-sdk's `inputSchemaDef: { message: z.string() }`: a shape of field schemas. */
export function fromShape(shape: Record<string, StandardSchemaLike>, where: string) {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    if (!isStandardSchema(field)) throw new TypeError(`${where}: field "${key}" is not a zod schema`);
    properties[key] = jsonSchemaOf(field, `${where}.${key}`);
    const empty = field['~standard'].validate(undefined);
    if (empty instanceof Promise || empty.issues) required.push(key);
  }
  const json: JsonObject = { type: 'object', properties, ...(required.length ? { required } : {}) };
  const check: ArgumentCheck = async (args) => {
    const value: JsonObject = { ...args };
    const problems: string[] = [];
    for (const [key, field] of Object.entries(shape)) {
      const result = await runStandard(field, args[key], `arguments.${key}`);
      if (result.ok) {
        if (result.value !== undefined) value[key] = result.value;
      } else problems.push(...result.problems);
    }
    return problems.length ? { problems } : { value };
  };
  return { json, check };
}
