import { type OutputUnit, type SchemaDraft, Validator } from '@cfworker/json-schema';

/**
 * Arguments against a page-written JSON Schema, checked in tabmcp before the call reaches the page,
 * so an agent gets every problem at once, named by its path. The schema is the page's: whatever it
 * costs to check runs here, in the process every session and peer shares. So:
 *
 * - Keywords whose cost or meaning the page chooses are not checked (the page checks its own):
 *   `pattern` and `patternProperties` run page regexes (ReDoS, issue 13 finding 5), `format` runs
 *   the validator's own regexes over agent text, `uniqueItems` is quadratic in the arguments. Where
 *   `patternProperties` goes, `additionalProperties` and `unevaluatedProperties` go too: without
 *   it they would refuse properties the page allows.
 * - `$ref` can make the work exponential (two branches that both refer to the next level), so each
 *   check has a budget of schema reads; a schema that exhausts it, or that cannot be compiled
 *   (an unresolved `$ref`), is not checked here at all.
 *
 * Not checking only ever lets a call through to the page, never refuses a valid one.
 */

/**
 * About 10 000 schema visits (each reads ~48 keywords), some 80 ms at worst: an array of a thousand
 * objects of five properties takes 6 000.
 */
const READ_BUDGET = 500_000;

const UNCHECKED = new Set(['pattern', 'format', 'uniqueItems']);
const SUBSCHEMA = new Set([
  'additionalItems',
  'unevaluatedItems',
  'items',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
const SUBSCHEMA_LIST = new Set(['prefixItems', 'items', 'allOf', 'anyOf', 'oneOf']);
const SUBSCHEMA_MAP = new Set(['$defs', 'definitions', 'properties', 'dependentSchemas', 'dependencies']);

class BudgetSpent extends Error {}

interface Compiled {
  validator: Validator;
  meter: { reads: number };
}

/** Per schema object: a page's tool list is replaced, not mutated, when it changes. */
const compiled = new WeakMap<object, Compiled | null>();

/** The problems, each "path: what is wrong"; none when the arguments fit or the schema is not checked here. */
export function checkPageArguments(schema: object, value: unknown, root = 'arguments'): string[] {
  const entry = compile(schema);
  if (!entry) return [];
  entry.meter.reads = 0;
  let units: OutputUnit[];
  try {
    const result = entry.validator.validate(value);
    if (result.valid) return [];
    units = result.errors;
  } catch {
    // The budget ran out, a `$ref` did not resolve, or the recursion overflowed: the page decides.
    return [];
  }
  return describe(units, value, schema, root);
}

function compile(schema: object): Compiled | null {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  let entry: Compiled | null = null;
  try {
    const meter = { reads: 0 };
    // Properties another node's `patternProperties` evaluates would count as unevaluated.
    const dropUnevaluated = JSON.stringify(schema).includes('"patternProperties"');
    const checked = metered(schema, meter, dropUnevaluated);
    if (isObject(checked)) entry = { validator: new Validator(checked, draftOf(schema), false), meter };
  } catch {
    entry = null;
  }
  compiled.set(schema, entry);
  return entry;
}

function draftOf(schema: object): SchemaDraft {
  const dialect = '$schema' in schema && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('draft-04')) return '4';
  if (dialect.includes('draft-06') || dialect.includes('draft-07')) return '7';
  if (dialect.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/**
 * A copy of a schema node without the unchecked keywords, each schema object behind a proxy that
 * counts reads against the budget. Only schema positions are walked: a property called `pattern`
 * stays, and so do `enum`, `const` and `default` values.
 */
function metered(node: unknown, meter: { reads: number }, dropUnevaluated: boolean): unknown {
  if (!isObject(node)) return node;
  const hasPatternProperties = 'patternProperties' in node;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (UNCHECKED.has(key) || key === 'patternProperties') continue;
    if (hasPatternProperties && key === 'additionalProperties') continue;
    if ((hasPatternProperties || dropUnevaluated) && key === 'unevaluatedProperties') continue;
    if (SUBSCHEMA_LIST.has(key) && Array.isArray(child)) {
      copy[key] = child.map((item) => metered(item, meter, dropUnevaluated));
    } else if (SUBSCHEMA_MAP.has(key) && isObject(child)) {
      copy[key] = Object.fromEntries(
        Object.entries(child).map(([name, item]) => [name, metered(item, meter, dropUnevaluated)]),
      );
    } else if (SUBSCHEMA.has(key)) {
      copy[key] = metered(child, meter, dropUnevaluated);
    } else {
      copy[key] = child;
    }
  }
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (++meter.reads > READ_BUDGET) throw new BudgetSpent();
      return Reflect.get(target, key, receiver);
    },
  });
}

/** Units that only say "a subschema had errors": the units after them say which. */
const WRAPPERS = new Set([
  '$ref',
  '$recursiveRef',
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'additionalProperties',
  'unevaluatedProperties',
  'allOf',
  'dependentSchemas',
]);

/** Each problem as "arguments.path: expected …", worded as the page SDK's checker words it. */
function describe(units: OutputUnit[], value: unknown, schema: object, root: string): string[] {
  const problems = new Set<string>();
  // The branches of a failed anyOf/oneOf each fail their own way; one line says it better.
  const summarised: string[] = [];
  let previous: { keyword: string; inBranch: boolean } = { keyword: '', inBranch: false };
  for (const unit of units) {
    // A `false` unit carries no schema location of its own: it belongs to the unit before it.
    const inBranch =
      unit.keyword === 'false'
        ? previous.inBranch
        : summarised.some((prefix) => unit.keywordLocation.startsWith(prefix));
    const after = previous.keyword;
    previous = { keyword: unit.keyword, inBranch };
    if (inBranch || WRAPPERS.has(unit.keyword)) continue;
    if (unit.keyword === 'anyOf' || unit.keyword === 'oneOf') summarised.push(`${unit.keywordLocation}/`);
    const path = pathOf(unit.instanceLocation, value, root);
    if (unit.keyword === 'false') {
      problems.add(`${path}: ${after === 'additionalProperties' ? 'not an allowed property' : 'not allowed'}`);
      continue;
    }
    const node = schemaAt(schema, unit.keywordLocation.split('/').slice(1, -1));
    for (const line of explain(unit, node, valueAt(value, unit.instanceLocation))) {
      problems.add(line.startsWith('.') ? `${path}${line}` : `${path}: ${line}`);
    }
  }
  return [...problems];
}

function explain(unit: OutputUnit, node: Record<string, unknown> | undefined, value: unknown): string[] {
  const bound = node?.[unit.keyword];
  switch (unit.keyword) {
    case 'type':
      return [`expected ${[bound].flat().join(' or ')}, got ${typeOf(value)}`];
    case 'required':
      return [bound]
        .flat()
        .filter((key): key is string => typeof key === 'string' && isObject(value) && !(key in value))
        .map((key) => `.${key}: required`);
    case 'enum':
      return [
        `expected one of ${[bound]
          .flat()
          .map((option) => JSON.stringify(option))
          .join(', ')}`,
      ];
    case 'const':
      return [`expected ${JSON.stringify(bound)}`];
    case 'anyOf':
      return ['does not match any of the allowed shapes'];
    case 'oneOf':
      return [`does not match exactly one of the allowed shapes (${/\d+ matches/.exec(unit.error)?.[0]})`];
    case 'minLength':
      return [`expected at least ${bound} characters`];
    case 'maxLength':
      return [`expected at most ${bound} characters`];
    case 'minItems':
      return [`expected at least ${bound} items`];
    case 'maxItems':
      return [`expected at most ${bound} items`];
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      if (typeof bound === 'number') return [`expected a number ${COMPARISON[unit.keyword]} ${bound}`];
  }
  return [unit.error.replace(/\.$/, '')];
}

const COMPARISON = { minimum: '>=', maximum: '<=', exclusiveMinimum: '>', exclusiveMaximum: '<' };

/**
 * The schema object at a unit's keyword location (its tokens, the keyword's own left off). The
 * location runs through the `$ref`s taken, each continuing in the schema it refers to; only
 * references within the schema are followed.
 */
function schemaAt(schema: object, tokens: string[]): Record<string, unknown> | undefined {
  let node: unknown = schema;
  for (const raw of tokens) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    const token = decodeToken(raw);
    node = (node as Record<string, unknown>)[token];
    if (token !== '$ref') continue;
    if (typeof node !== 'string' || !node.startsWith('#')) return undefined;
    node = schemaAt(schema, node.split('/').slice(1));
  }
  return isObject(node) ? node : undefined;
}

function valueAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const raw of pointer.split('/').slice(1)) {
    at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[decodeToken(raw)] : undefined;
  }
  return at;
}

function decodeToken(raw: string): string {
  return decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** "#/items/0/name" as "arguments.items[0].name". */
function pathOf(pointer: string, value: unknown, root: string): string {
  let path = root;
  let at = value;
  for (const raw of pointer.split('/').slice(1)) {
    const token = decodeToken(raw);
    path += Array.isArray(at) ? `[${token}]` : `.${token}`;
    at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[token] : undefined;
  }
  return path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
