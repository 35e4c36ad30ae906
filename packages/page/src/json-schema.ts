import { validateJsonSchema as check } from '@tabmcp/protocol/light';

export type JsonSchema = { [key: string]: unknown };

/** Checks a value against a JSON Schema; each problem reads "arguments.field: expected …". */
export function validateJsonSchema(schema: JsonSchema, value: unknown, path?: string): string[] {
  return check(schema, value, path);
}
