import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reconnectBudget } from '../src/content/reconnect-budget';

describe("the tab Port's reconnect budget (content script)", () => {
  it('keeps reconnecting a quiet tab whose Port drops each time the idle worker stops', () => {
    let clock = 0;
    const budget = reconnectBudget(20, 5_000, () => clock);
    // Two hours of a worker idled every five minutes, and never a call.
    for (let drop = 1; drop <= 24; drop += 1) {
      budget.connected();
      clock += 5 * 60_000;
      assert.equal(budget.retry(), true, `drop ${drop}`);
    }
  });

  it('gives up on a Port that drops again at once, twenty times in a row', () => {
    let clock = 0;
    const budget = reconnectBudget(20, 5_000, () => clock);
    for (let drop = 1; drop <= 20; drop += 1) {
      budget.connected();
      clock += 100;
      assert.equal(budget.retry(), true, `drop ${drop}`);
    }
    budget.connected();
    clock += 100;
    assert.equal(budget.retry(), false);
  });

  it('earns the budget back when the background answers', () => {
    const clock = 0;
    const budget = reconnectBudget(2, 5_000, () => clock);
    budget.connected();
    assert.equal(budget.retry(), true);
    assert.equal(budget.retry(), true);
    budget.healthy();
    assert.equal(budget.retry(), true);
  });
});
