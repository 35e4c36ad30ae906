import assert from 'node:assert/strict';
import { it } from 'node:test';
import { otherBenches, smokeRun } from '../test-support/bench-smoke';

/** Every benchmark but those that drive the peers (test-support/bench-smoke.ts says why). */
const benches = otherBenches();

it('finds the benchmarks', () => {
  assert.ok(benches.includes('tools-call.ts') && benches.includes('proxy.ts'), benches.join(', '));
});

smokeRun('every benchmark without peers runs through in its quick mode', benches);
