import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimited } from '../src/content/rate-limit';

describe('tool update rate limit (content script)', () => {
  it('sends the first change at once and folds a burst into one trailing send', async () => {
    let runs = 0;
    const limit = rateLimited(() => {
      runs += 1;
    }, 30);
    limit.schedule();
    assert.equal(runs, 1, 'the first change of a quiet period goes at once');
    limit.schedule();
    limit.schedule();
    limit.schedule();
    assert.equal(runs, 1);
    await new Promise((done) => setTimeout(done, 60));
    assert.equal(runs, 2, 'the burst became one trailing send');
    await new Promise((done) => setTimeout(done, 40));
    limit.schedule();
    assert.equal(runs, 3, 'quiet again: at once');
    limit.schedule();
    limit.cancel();
    await new Promise((done) => setTimeout(done, 60));
    assert.equal(runs, 3, 'cancelled');
  });
});
