import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SentToolList, toolUpdates } from '../src/content/tool-updates';

/** The content script's wiring of docs/requirements.md "Tool Updates", on a mocked clock. */
describe('tool updates (content script): 500 ms rate limit, 60 s poll, only changes sent', () => {
  it('polls every 60 s, sends a list only when it changed, and folds a burst of list_changed into one per 500 ms', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 });
    const page = { tools: [{ name: 'a' }] };
    const sent = new SentToolList();
    sent.record(page.tools);
    let reads = 0;
    const posted: string[][] = [];
    const updates = toolUpdates(() => {
      reads += 1;
      if (sent.record(page.tools)) posted.push(page.tools.map((tool) => tool.name));
    }, Date.now);

    t.mock.timers.tick(60_000);
    assert.equal(reads, 1, 'the poll read the list');
    assert.deepEqual(posted, [], 'unchanged: nothing sent');

    // A page that changes its tools without a word is seen at the next poll, not before.
    page.tools = [{ name: 'a' }, { name: 'b' }];
    t.mock.timers.tick(59_999);
    assert.deepEqual(posted, []);
    t.mock.timers.tick(1);
    assert.deepEqual(posted, [['a', 'b']]);

    t.mock.timers.tick(1_000);
    page.tools = [{ name: 'c' }];
    updates.changed();
    assert.deepEqual(posted.at(-1), ['c'], 'the first list_changed of a quiet period goes at once');
    page.tools = [{ name: 'd' }];
    updates.changed();
    updates.changed();
    updates.changed();
    t.mock.timers.tick(499);
    assert.equal(posted.length, 2, 'the rest of the burst waits');
    t.mock.timers.tick(1);
    assert.deepEqual(posted, [['a', 'b'], ['c'], ['d']], 'one trailing send for the burst');

    updates.stop();
    page.tools = [{ name: 'e' }];
    const readsBefore = reads;
    t.mock.timers.tick(180_000);
    assert.equal(reads, readsBefore, 'stopped: no more polls');
  });
});
