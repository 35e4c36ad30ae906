// Issue 39: the quick chaos run (bench/proxy-chaos.ts is the full one). Three instances in their own processes on a
// real redis-server, Redis connections cut, an instance stopped past its heartbeat, browsers redialing elsewhere:
// every call gets its true answer or an error that names its cause, and no browser vanishes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runChaos } from '../../../test-support/proxy/chaos';

describe('proxy cluster under faults', () => {
  it('loses no reply, no browser, and blames no browser that answered (seed 39, a few seconds)', async () => {
    const result = await runChaos({
      seed: 39,
      instances: 3,
      browsers: 4,
      clients: 6,
      durationMs: 5_000,
      faultEveryMs: 250,
      heartbeatMs: 200,
      window: 4,
    });
    const summary = JSON.stringify(result);
    assert.ok(result.calls >= 300, `enough calls to mean something: ${summary}`);
    assert.ok(Object.values(result.faults).reduce((a, b) => a + b, 0) >= 10, `faults injected: ${summary}`);
    assert.equal(result.lost, 0, `lost replies: ${summary}`);
    assert.equal(result.didNotAnswer, 0, `wrong "did not answer": ${summary}`);
    assert.equal(result.wrongAnswers, 0, `wrong answers: ${summary}`);
    assert.equal(result.vanishedBrowsers, 0, `vanished browsers: ${summary}`);
    assert.equal(result.extraSessions, 0, `stale sessions left: ${summary}`);
    assert.equal(
      result.answered + result.didNotAnswer + result.wrongAnswers + namedCount(result.namedErrors),
      result.calls,
    );
  });
});

function namedCount(errors: Record<string, number>): number {
  return Object.values(errors).reduce((a, b) => a + b, 0);
}
