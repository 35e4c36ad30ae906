import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import { checkPageArguments } from '../src/core/page-arguments';

type JsonSchema = { [key: string]: unknown };

/**
 * Issue 13, finding 5: page-written schemas full of catastrophic patterns, anywhere in the tree.
 * checkPageArguments must answer as the validator does on the same schema without patterns: it never
 * runs one (if it did, these inputs would hold the test for minutes).
 */
const runs = fuzzRuns(300);

const catastrophic = fc.constantFrom('^(\\w+\\s?)*$', '^(a+)+$', '^(a|aa)+$', '^(.*a){20}$', '([a-z]+)*[0-9]');
const evilText = fc.integer({ min: 25, max: 40 }).map((n) => `${'a'.repeat(n)}!`);

const schema: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.record({ type: fc.constant('string'), pattern: catastrophic }),
    fc.record({ type: fc.constant('string'), pattern: catastrophic, maxLength: fc.integer({ min: 0, max: 50 }) }),
    fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom('q', 'r', 's'), tie('node')) }),
    fc.record({ type: fc.constant('array'), items: tie('node') }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    evilText,
    fc.integer(),
    fc.dictionary(fc.constantFrom('q', 'r', 's'), tie('v')),
    fc.array(tie('v'), { maxLength: 3 }),
  ),
})).v;

function withoutPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPatterns);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'pattern')
      .map(([key, child]) => [key, key === 'properties' ? mapValues(child) : withoutPatterns(child)]),
  );
}

function mapValues(properties: unknown): unknown {
  if (typeof properties !== 'object' || properties === null) return properties;
  return Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, withoutPatterns(child)]));
}

describe('fuzz: page patterns are never run by tabmcp', () => {
  it('checkPageArguments answers as the schema without patterns', () => {
    fc.assert(
      fc.property(schema, value, (page, args) => {
        const expected = new Validator(withoutPatterns(page) as JsonSchema, '2020-12').validate(args).valid;
        assert.equal(checkPageArguments(page, args).length === 0, expected);
      }),
      { numRuns: runs },
    );
  });
});
