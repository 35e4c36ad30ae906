/**
 * A small JSON Schema checker for a page's own tool arguments and results, small enough for the
 * page bundle (the server uses a full validator, server/src/core/page-arguments.ts). It reports each
 * problem as "path: expected …", so an agent can fix its call. Supported keywords, and nothing else:
 *
 * - type (one or a list; integer counts as number), enum, const
 * - anyOf, oneOf
 * - $ref within the schema (`#`, `#/$defs/…`, `#/definitions/…`, any JSON pointer); others are ignored
 * - strings: minLength, maxLength, pattern (the page's own regexes, run in the page)
 * - numbers: minimum, maximum
 * - arrays: items (one schema), minItems, maxItems
 * - objects: properties, required, additionalProperties (false or a schema)
 *
 * Unknown keywords pass: the checker never refuses what it cannot judge.
 */
export type JsonSchema = { [key: string]: unknown };

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `$ref` cycle that consumes no input would never end; deeper than this, the check gives up. */
const MAX_REF_DEPTH = 64;

/** Checks a value against a JSON Schema; each problem reads "arguments.field: expected …". */
export function validateJsonSchema(schema: JsonSchema, value: unknown, path = 'arguments'): string[] {
  return check(schema, value, path, schema, 0);
}

function check(schema: JsonSchema, value: unknown, path: string, root: JsonSchema, refDepth: number): string[] {
  if (typeof schema.$ref === 'string') {
    const target = refDepth < MAX_REF_DEPTH ? resolve(root, schema.$ref) : undefined;
    const problems = target ? check(target, value, path, root, refDepth + 1) : [];
    if (problems.length > 0) return problems;
  }
  const problems: string[] = [];
  const { type } = schema;
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
    if (!types.some((t) => matchesType(value, t))) {
      return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => Object.is(option, value))) {
    problems.push(`${path}: expected one of ${schema.enum.map((o) => JSON.stringify(o)).join(', ')}`);
  }
  if ('const' in schema && !Object.is(schema.const, value)) {
    problems.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const shapes = schema[key];
    if (Array.isArray(shapes) && shapes.length > 0) {
      const passing = shapes.filter(
        (option) => isSchema(option) && check(option, value, path, root, refDepth).length === 0,
      );
      if (key === 'anyOf' ? passing.length === 0 : passing.length !== 1) {
        problems.push(`${path}: does not match ${key === 'anyOf' ? 'any' : 'exactly one'} of the allowed shapes`);
      }
    }
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength)
      problems.push(`${path}: expected at least ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      problems.push(`${path}: expected at most ${schema.maxLength} characters`);
    if (typeof schema.pattern === 'string') {
      try {
        if (!new RegExp(schema.pattern, 'u').test(value)) problems.push(`${path}: expected to match ${schema.pattern}`);
      } catch {
        // An invalid pattern is the page author's bug; do not block the call for it.
      }
    }
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      problems.push(`${path}: expected a number >= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      problems.push(`${path}: expected a number <= ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      problems.push(`${path}: expected at least ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      problems.push(`${path}: expected at most ${schema.maxItems} items`);
    if (isSchema(schema.items)) {
      const items = schema.items;
      value.forEach((item, index) => {
        problems.push(...check(items, item, `${path}[${index}]`, root, refDepth));
      });
    }
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    const properties = isSchema(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === 'string' && !(key in record)) problems.push(`${path}.${key}: required`);
      }
    }
    for (const [key, child] of Object.entries(record)) {
      const childSchema = properties[key];
      if (isSchema(childSchema)) problems.push(...check(childSchema, child, `${path}.${key}`, root, refDepth));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not an allowed property`);
      else if (isSchema(schema.additionalProperties))
        problems.push(...check(schema.additionalProperties, child, `${path}.${key}`, root, refDepth));
    }
  }
  return problems;
}

/** A reference within the schema, as a JSON pointer (`#/$defs/item`); undefined for any other. */
function resolve(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    if (!isSchema(node) && !Array.isArray(node)) return undefined;
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    node = (node as Record<string, unknown>)[token];
  }
  return isSchema(node) ? node : undefined;
}
