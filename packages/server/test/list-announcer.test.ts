import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListAnnouncer } from '../src/core/list-announcer';

/** Decision 355: a change an answer makes is announced before that answer is written, not a microtask later. */
describe('ListAnnouncer.now', () => {
  it('announces a change at once, and nothing when the list is the one last announced', () => {
    let list = ['list_tabs'];
    let heard = 0;
    const announcer = new ListAnnouncer(
      () => list,
      () => heard++,
    );
    announcer.now();
    assert.equal(heard, 0, 'unchanged: nothing');
    list = ['list_tabs', 'handle_dialog'];
    announcer.now();
    assert.equal(heard, 1, 'announced before now() returned');
  });

  it('inside a transition waits for its end, which comes before the transition answers', async () => {
    let list = ['list_tabs'];
    let heard = 0;
    const announcer = new ListAnnouncer(
      () => list,
      () => heard++,
    );
    const heardAtAnswer = await announcer
      .transition(async () => {
        list = ['list_tabs', 'handle_dialog'];
        announcer.now();
        assert.equal(heard, 0, 'held while the transition runs');
      })
      .then(() => heard);
    assert.equal(heardAtAnswer, 1);
  });
});
