/**
 * A small JSON Schema checker for tool arguments. It covers what tool schemas use in practice
 * (type, required, properties, additionalProperties, enum, const, items, string/number/array bounds,
 * anyOf/oneOf) and reports each problem as "path: expected …", so an agent can fix its call.
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

export interface JsonSchemaCheckOptions {
  /**
   * Run `pattern` regexes (default true). Off where the schema comes from a page and the check runs
   * outside it: a catastrophic pattern would freeze the process (ReDoS), and the page checks its own.
   */
  patterns?: boolean;
}

export function validateJsonSchema(
  schema: JsonSchema,
  value: unknown,
  path = 'arguments',
  options: JsonSchemaCheckOptions = {},
): string[] {
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
        (option) => isSchema(option) && validateJsonSchema(option, value, path, options).length === 0,
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
    if (options.patterns !== false && typeof schema.pattern === 'string') {
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
        problems.push(...validateJsonSchema(items, item, `${path}[${index}]`, options));
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
      if (isSchema(childSchema)) problems.push(...validateJsonSchema(childSchema, child, `${path}.${key}`, options));
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not an allowed property`);
      else if (isSchema(schema.additionalProperties))
        problems.push(...validateJsonSchema(schema.additionalProperties, child, `${path}.${key}`, options));
    }
  }
  return problems;
}

/**
 * Arguments against a page-written schema, checked outside the page (tabmcp's server): everything
 * but `pattern`, so no page regex runs on a thread that serves every session (ReDoS). The page's
 * own SDK checks its patterns where they can only hurt the page.
 */
export function checkPageArguments(schema: JsonSchema, args: unknown): string[] {
  return validateJsonSchema(schema, args, 'arguments', { patterns: false });
}
