// What holds a loaded page's readiness (docs/dom-tools.md, "When open_tab answers"): the tab's
// requests as chrome.webRequest reports them, on a clock the test moves.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { type TabRequests, watchTabRequests } from '../src/background/tab-requests';

type Listener = (details: Record<string, unknown>) => void;

/** chrome.webRequest's three events, fired by the test as the browser would. */
function fakeWebRequest() {
  const listeners = { start: [] as Listener[], end: [] as Listener[] };
  const event = (list: Listener[]) => ({
    addListener: (listener: Listener) => list.push(listener),
    removeListener: () => {},
  });
  (globalThis as { chrome?: unknown }).chrome = {
    webRequest: {
      onBeforeRequest: event(listeners.start),
      onCompleted: event(listeners.end),
      onErrorOccurred: event(listeners.end),
    },
  };
  return {
    start: (details: Record<string, unknown>) => {
      for (const listener of listeners.start) listener(details);
    },
    end: (requestId: string) => {
      for (const listener of listeners.end) listener({ requestId });
    },
  };
}

const TAB = 7;
const PAGE = 'http://127.0.0.1:5000';
const request = (requestId: string, type: string, path: string) => ({
  requestId,
  type,
  url: `${PAGE}${path}`,
  tabId: TAB,
  frameId: 0,
  initiator: PAGE,
});

/** Whether the tab is quiet right now (a deadline already passed answers at once). */
function quietNow(requests: TabRequests, at: number): Promise<boolean> {
  return requests.quiet(TAB, at);
}

describe('a tab request holds readiness by what it may leave to run', () => {
  let clock = 1_000;
  let browser: ReturnType<typeof fakeWebRequest>;
  let requests: TabRequests;
  beforeEach(() => {
    clock = 1_000;
    browser = fakeWebRequest();
    requests = watchTabRequests(() => clock);
  });

  it('a script that arrived is activity: the DOM quiet window counts from its end', async () => {
    browser.start(request('1', 'script', '/module.js'));
    assert.equal(await quietNow(requests, clock), false, 'a script in flight holds the page');
    clock = 1_050;
    browser.end('1');
    assert.equal(await quietNow(requests, clock), true);
    assert.equal(requests.lastActivity(TAB), 1_050);
  });

  it('an image holds the page while it loads, and its arrival leaves nothing to wait for', async () => {
    browser.start(request('2', 'image', '/photo.png'));
    assert.equal(await quietNow(requests, clock), false, 'layout takes the size of an image still loading');
    clock = 1_050;
    browser.end('2');
    assert.equal(await quietNow(requests, clock), true);
    assert.equal(requests.lastActivity(TAB), Number.NEGATIVE_INFINITY, 'an image runs no code after it');
    assert.equal(requests.lastRequest(TAB), 1_050, 'but the layout changed when it arrived');
  });

  it("the browser's own fetch of the default icon neither holds nor counts", async () => {
    browser.start(request('3', 'image', '/favicon.ico'));
    assert.equal(await quietNow(requests, clock), true, 'nothing in the page waits for its icon');
    assert.equal(requests.lastActivity(TAB), Number.NEGATIVE_INFINITY);
    assert.equal(requests.startedSince(TAB, 0), 0);
    assert.equal(requests.lastRequest(TAB), Number.NEGATIVE_INFINITY);
    browser.start({ ...request('4', 'image', '/favicon.ico'), frameId: 3 });
    assert.equal(await quietNow(requests, clock), false, "a frame's request of that URL is the frame's own");
  });
});
