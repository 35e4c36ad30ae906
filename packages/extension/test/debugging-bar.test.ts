import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { DebuggerSessions } from '../src/background/debugger/debugger-sessions';

type EventListener = (source: { tabId?: number }, method: string, params?: unknown) => void;

/**
 * chrome.debugger and chrome.tabs as the sessions use them: every tab is shown in its window, `height` is
 * every tab's window height, and `resize` plays the browser's Page.frameResized.
 */
function fakeChrome() {
  const listeners: EventListener[] = [];
  const noEvent = { addListener: () => {} };
  const browser = {
    height: 713,
    /** A dialog blocks the page: it does not answer Page.enable. */
    blocked: false,
    resize(tabId: number, height: number) {
      browser.height = height;
      for (const listener of listeners) listener({ tabId }, 'Page.frameResized', {});
    },
  };
  (globalThis as { chrome?: unknown }).chrome = {
    debugger: {
      attach: async () => {},
      sendCommand: (_target: unknown, method: string) =>
        browser.blocked && method === 'Page.enable' ? new Promise(() => {}) : Promise.resolve({}),
      detach: async () => {},
      onDetach: noEvent,
      onEvent: { addListener: (listener: EventListener) => listeners.push(listener) },
    },
    tabs: { onRemoved: noEvent, get: async () => ({ active: true, windowId: 1, height: browser.height }) },
  };
  return browser;
}

/** Lets the attach chain (tab read, attach, Page.enable, the bar's wait) run as far as it can on the mocked clock. */
async function turns(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
}

/** Whether `promise` has settled by now. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await turns();
  return done;
}

/** Every session idles out (15 s after its last use), then `thenMs` more go by. */
async function idleOut(thenMs: number): Promise<void> {
  mock.timers.tick(15_000);
  await turns();
  mock.timers.tick(thenMs);
}

/**
 * Chrome's debugging bar comes a moment after an attach and shortens the window (debugging-bar.ts): the attach
 * that brings it resolves once the window changed, so the call that attached measures the window it acts in.
 */
describe('an attach waits for the debugging bar it brings', () => {
  let browser: ReturnType<typeof fakeChrome>;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    browser = fakeChrome();
  });
  afterEach(() => mock.timers.reset());
  /** A first session attaches to `tabId` and the bar comes. */
  const barCame = async (sessions: DebuggerSessions, tabId: number) => {
    const attached = sessions.attach(tabId);
    browser.resize(tabId, 657);
    await attached;
  };

  it('resolves when the tab is resized, not before', async () => {
    const sessions = new DebuggerSessions();
    const attached = sessions.attach(7);
    assert.equal(await settled(attached), false, 'waits for the bar');
    browser.resize(7, 657);
    assert.equal(await settled(attached), true);
  });

  it('resolves at once when the bar came before the page was heard (the tab is shorter already)', async () => {
    const sessions = new DebuggerSessions();
    const attached = sessions.attach(7);
    browser.height = 657;
    assert.equal(await settled(attached), true);
  });

  it('does not wait while another session holds the bar up, nor just after the last one ended', async () => {
    const sessions = new DebuggerSessions();
    await barCame(sessions, 7);
    assert.equal(await settled(sessions.attach(8)), true, 'the bar is shown already');
    await idleOut(0);
    assert.equal(sessions.isAttached(7) || sessions.isAttached(8), false, 'both idled out');
    assert.equal(await settled(sessions.attach(9)), true, 'Chrome keeps the bar a moment after the last detach');
    await idleOut(5_000);
    browser.height = 713;
    const later = sessions.attach(10);
    assert.equal(await settled(later), false, 'gone by now: it comes again');
    browser.resize(10, 657);
    assert.equal(await settled(later), true);
  });

  it('a bar gone though the last session ended a moment ago is waited for: the height says it, not the clock', async () => {
    const sessions = new DebuggerSessions();
    await barCame(sessions, 7);
    // The tab's removal reached a busy worker late: its session "ended" just now, yet Chrome took the bar away.
    await idleOut(1_000);
    browser.height = 713;
    const again = sessions.attach(8);
    assert.equal(await settled(again), false, 'waits for the bar');
    browser.resize(8, 657);
    assert.equal(await settled(again), true);
  });

  it('a bar that never came is waited for 1 s once, then no more (a browser that shows none)', async () => {
    const sessions = new DebuggerSessions();
    const attached = sessions.attach(7);
    await turns();
    mock.timers.tick(999);
    assert.equal(await settled(attached), false);
    mock.timers.tick(1);
    assert.equal(await settled(attached), true);
    await idleOut(5_000);
    assert.equal(await settled(sessions.attach(8)), true, 'not waited for again');
  });

  it('a page a dialog blocks is not waited for, and teaches nothing about the bar', async () => {
    const sessions = new DebuggerSessions();
    browser.blocked = true;
    const blocked = sessions.attach(7);
    await turns();
    mock.timers.tick(1_000);
    assert.equal(await settled(blocked), true, 'after Page.enable’s own bound only');
    await idleOut(5_000);
    browser.blocked = false;
    assert.equal(await settled(sessions.attach(8)), false, 'the bar is still waited for');
  });

  it('a bar seen once is waited for again after a wait that ran out', async () => {
    const sessions = new DebuggerSessions();
    await barCame(sessions, 7);
    await idleOut(5_000);
    browser.height = 713;
    const missed = sessions.attach(8);
    await turns();
    mock.timers.tick(1_000);
    assert.equal(await settled(missed), true, 'ran out');
    await idleOut(5_000);
    assert.equal(await settled(sessions.attach(9)), false, 'still waited for');
  });
});
