import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { DebuggerSessions } from '../src/background/debugger/debugger-sessions';

/** chrome.debugger as the sessions use it: attaches, commands and detaches are recorded. */
function fakeChrome() {
  const detached: number[] = [];
  const noEvent = { addListener: () => {} };
  (globalThis as { chrome?: unknown }).chrome = {
    debugger: {
      attach: async () => {},
      sendCommand: async () => ({}),
      detach: async ({ tabId }: { tabId: number }) => {
        detached.push(tabId);
      },
      onDetach: noEvent,
      onEvent: noEvent,
    },
    // A tab its window does not show: no debugging bar is waited for (debugging-bar.test.ts).
    tabs: { onRemoved: noEvent, get: async () => ({ active: false }) },
  };
  return { detached };
}

/** Lets the attach chain (attach, Page.enable, its bound) run on the mocked clock. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

/**
 * A session nobody uses is detached after 15 s (Chrome shows its "debugging this browser" bar while
 * attached), and every call to a tab uses its session: the idle timer is armed once and checks the
 * last use when it fires, instead of being cleared and set again on every call (issue 24).
 */
describe('a debugger session idles out 15 s after its last use', () => {
  let chrome: ReturnType<typeof fakeChrome>;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    chrome = fakeChrome();
  });
  afterEach(() => mock.timers.reset());

  it('is detached 15 s after attaching when nobody uses it', async () => {
    const sessions = new DebuggerSessions();
    await Promise.all([sessions.attach(7), settle()]);
    mock.timers.tick(14_999);
    assert.deepEqual(chrome.detached, []);
    mock.timers.tick(1);
    assert.deepEqual(chrome.detached, [7]);
    assert.equal(sessions.isAttached(7), false);
  });

  it('a use resets the idle time, and many uses arm one timer', async () => {
    const sessions = new DebuggerSessions();
    await Promise.all([sessions.attach(7), settle()]);
    const armed = mock.fn(globalThis.setTimeout);
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = armed as unknown as typeof setTimeout;
    try {
      mock.timers.tick(10_000);
      for (let call = 0; call < 100; call++) {
        sessions.hold(7, `call ${call}`);
        sessions.release(7, `call ${call}`);
      }
      assert.equal(armed.mock.callCount(), 0, 'a hundred calls armed no timer of their own');
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    mock.timers.tick(5_000);
    assert.deepEqual(chrome.detached, [], 'used 5 s ago: still attached');
    mock.timers.tick(9_999);
    assert.deepEqual(chrome.detached, []);
    mock.timers.tick(1);
    assert.deepEqual(chrome.detached, [7], '15 s after the last use');
  });

  it('a held session is not detached; once released it idles out 15 s later', async () => {
    const sessions = new DebuggerSessions();
    await Promise.all([sessions.attach(7), settle()]);
    sessions.hold(7, 'dialog');
    mock.timers.tick(60_000);
    assert.deepEqual(chrome.detached, []);
    sessions.release(7, 'dialog');
    mock.timers.tick(14_999);
    assert.deepEqual(chrome.detached, []);
    mock.timers.tick(1);
    assert.deepEqual(chrome.detached, [7]);
  });
});
