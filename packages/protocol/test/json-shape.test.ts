import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonShapeProblem, MAX_JSON_NODES } from '../src/json-shape';

/** A DAG whose every level holds the one below twice: a few dozen objects, 2^levels values as JSON. */
function doublingDag(levels: number, leaf: unknown = { type: 'string' }): unknown {
  let node = leaf;
  for (let level = 0; level < levels; level++) node = { type: 'object', properties: { a: node, b: node } };
  return node;
}

function nested(depth: number): unknown {
  let node: unknown = { type: 'string' };
  for (let level = 0; level < depth; level++) node = { type: 'object', properties: { inner: node } };
  return node;
}

describe('jsonShapeProblem is bounded by the work it does (issue 38, "a huge schema can empty a tab")', () => {
  it('refuses a 2^22-value DAG for its size, after looking at no more than its budget of values', () => {
    // Every property read of a shared node is counted: the check must stop near the budget, not walk 2^22 paths.
    let reads = 0;
    const counted = (target: object): object =>
      new Proxy(target, {
        get(object, key, receiver) {
          reads += 1;
          return Reflect.get(object, key, receiver);
        },
      });
    let node: unknown = { type: 'string' };
    for (let level = 0; level < 22; level++)
      node = counted({ type: 'object', properties: counted({ a: node, b: node }) });
    const problem = jsonShapeProblem({ name: 'dag', inputSchema: node });
    assert.match(problem ?? '', new RegExp(`more than ${MAX_JSON_NODES} values once written out as JSON`));
    assert.ok(reads <= 2 * MAX_JSON_NODES, `${reads} property reads for a budget of ${MAX_JSON_NODES} values`);
  });

  it('passes a DAG that fits, and tells a value used twice from a cycle', () => {
    assert.equal(jsonShapeProblem(doublingDag(10)), undefined);
    const shared = { type: 'string' };
    assert.equal(jsonShapeProblem({ a: shared, b: [shared, shared] }), undefined);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { again: { items: cyclic } };
    assert.equal(jsonShapeProblem(cyclic), 'it refers to itself (a cycle)');
  });

  it('counts every value against the budget, the root included', () => {
    const items = (count: number) => Array.from({ length: count }, () => 0);
    assert.equal(jsonShapeProblem(items(99), { maxNodes: 100 }), undefined);
    assert.match(jsonShapeProblem(items(100), { maxNodes: 100 }) ?? '', /more than 100 values/);
  });

  it('refuses 5,000 levels for their depth, without overflowing the stack', () => {
    assert.match(jsonShapeProblem(nested(5_000)) ?? '', /nests deeper than 64 levels/);
    assert.match(jsonShapeProblem(nested(10), { maxDepth: 8 }) ?? '', /nests deeper than 8 levels/);
    assert.equal(jsonShapeProblem(nested(20)), undefined);
  });
});
