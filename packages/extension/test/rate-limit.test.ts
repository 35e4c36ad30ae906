import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimited } from '../src/content/rate-limit';

/** On a mocked clock: the timer and `now` move only when the test ticks them. */
describe('tool update rate limit (content script)', () => {
  it('sends the first change at once and folds a burst into one trailing send', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000 });
    let runs = 0;
    const limit = rateLimited(
      () => {
        runs += 1;
      },
      30,
      Date.now,
    );
    limit.schedule();
    assert.equal(runs, 1, 'the first change of a quiet period goes at once');
    limit.schedule();
    limit.schedule();
    limit.schedule();
    assert.equal(runs, 1);
    t.mock.timers.tick(29);
    assert.equal(runs, 1, 'the rest of the burst waits out the interval');
    t.mock.timers.tick(1);
    assert.equal(runs, 2, 'the burst became one trailing send');
    t.mock.timers.tick(30);
    limit.schedule();
    assert.equal(runs, 3, 'quiet again: at once');
    limit.schedule();
    limit.cancel();
    t.mock.timers.tick(60);
    assert.equal(runs, 3, 'cancelled');
  });
});
