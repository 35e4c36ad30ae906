import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { waitForSettle } from '../src/content/dom-tools/settle-wait';

/**
 * How an action settles (docs/dom-tools.md): on its own changes and follow-ups, never on a fixed
 * quiet time. Timers are mocked and never advanced unless a test says so: a fixed sleep coming back
 * leaves the wait unresolved and fails these tests, without any timed assertion.
 */
describe('an action settles on events, not on a fixed wait', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  /** Lets real tasks run (setImmediate is not mocked): a hop of the settle is a real message, not a timer. */
  const turns = async (count = 5) => {
    for (let turn = 0; turn < count; turn++) await new Promise((done) => setImmediate(done));
  };
  const watched = (promise: Promise<void>) => {
    const state = { settled: false };
    void promise.then(() => {
      state.settled = true;
    });
    return state;
  };

  it('an action that changes nothing answers without any timer running', async () => {
    const timersArmed = mock.fn();
    const settle = watched(
      waitForSettle({
        busy: () => false,
        over: () => false,
        subscribe: () => () => {},
        maxWaitMs: 2_000,
        afterQueuedTasks: (run) => {
          timersArmed();
          const immediate = setImmediate(run);
          return () => clearImmediate(immediate);
        },
      }),
    );
    await turns();
    assert.equal(settle.settled, true, 'settled with the clock standing still: no quiet time, no minimum');
    assert.equal(timersArmed.mock.callCount(), 1, 'one turn of the event loop');
  });

  it('the default turn of the event loop is a message, not a timer', async () => {
    const settle = watched(
      waitForSettle({ busy: () => false, over: () => false, subscribe: () => () => {}, maxWaitMs: 2_000 }),
    );
    await turns();
    assert.equal(settle.settled, true);
  });

  it("a change of the action's own gives whatever it set going one more turn, then answers", async () => {
    let changed = () => {};
    let turnsTaken = 0;
    const settle = watched(
      waitForSettle({
        busy: () => false,
        over: () => false,
        subscribe: (listener) => {
          changed = listener;
          return () => {};
        },
        maxWaitMs: 2_000,
        afterQueuedTasks: (run) => {
          const turn = ++turnsTaken;
          // Just before the first turn's check, the page changes (a framework's second render).
          const immediate = setImmediate(() => {
            if (turn === 1) changed();
            run();
          });
          return () => clearImmediate(immediate);
        },
      }),
    );
    await turns();
    assert.equal(settle.settled, true);
    assert.equal(turnsTaken, 2, 'one more turn after the change, and no more');
  });

  it('waits while a request the action started is out, and answers when it is reported done', async () => {
    let pending = 1;
    let report = () => {};
    const settle = watched(
      waitForSettle({
        busy: () => pending > 0,
        over: () => false,
        subscribe: (listener) => {
          report = listener;
          return () => {};
        },
        maxWaitMs: 2_000,
      }),
    );
    await turns();
    assert.equal(settle.settled, false, 'the request is still out');
    pending = 0;
    report();
    await turns();
    assert.equal(settle.settled, true, 'answered on the report, with no timer advanced');
  });

  it('a navigation the action started answers at once', async () => {
    let navigating = false;
    let report = () => {};
    const settle = watched(
      waitForSettle({
        busy: () => true,
        over: () => navigating,
        subscribe: (listener) => {
          report = listener;
          return () => {};
        },
        maxWaitMs: 2_000,
      }),
    );
    await turns();
    assert.equal(settle.settled, false);
    navigating = true;
    report();
    await turns(1);
    assert.equal(settle.settled, true);
  });

  it('something that never ends is answered at the bound', async () => {
    const settle = watched(
      waitForSettle({ busy: () => true, over: () => false, subscribe: () => () => {}, maxWaitMs: 2_000 }),
    );
    await turns();
    mock.timers.tick(1_999);
    await turns();
    assert.equal(settle.settled, false);
    mock.timers.tick(1);
    await turns();
    assert.equal(settle.settled, true);
  });
});
