import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { afterPageTurn, type ProbedWindow } from '../src/content/page-turn';

/**
 * A window whose messages are delivered one real task later, in order, as a browser's are. Its
 * page server, if any, answers a handshake from its listener, as serveTab does.
 */
function fakeWindow(): ProbedWindow & { dispatched: string[]; handshake(): void; withServer(): void } {
  const target = new EventTarget();
  const dispatched: string[] = [];
  const win = {
    location: { origin: 'http://127.0.0.1:1' },
    dispatched,
    postMessage: (data: unknown) => {
      setImmediate(() => {
        dispatched.push(typeof data === 'string' ? data : 'probe');
        target.dispatchEvent(Object.assign(new Event('message'), { data, source: win }));
      });
    },
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    handshake: () => win.postMessage('check-ready'),
    withServer: () =>
      target.addEventListener('message', (event) => {
        if ((event as MessageEvent).data === 'check-ready') win.postMessage('server-ready');
      }),
  };
  return win as unknown as ReturnType<typeof fakeWindow>;
}

/** Real tasks run (setImmediate is not mocked); the mocked setTimeout never fires unless told. */
const turns = async (count = 10) => {
  for (let turn = 0; turn < count; turn++) await new Promise((done) => setImmediate(done));
};

/**
 * Issue 24: derived tools on a page with no tools of its own, and the choice between two page
 * servers, wait for the page's own message queue, never for a fixed time. Timers are mocked and
 * never advanced: a fixed sleep coming back leaves `run` uncalled and fails these tests.
 */
describe("a page's turn to answer is its message queue, not a timer", () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('runs once the page had its turn, with the clock standing still', async () => {
    const win = fakeWindow();
    const run = mock.fn();
    win.handshake();
    afterPageTurn(run, 150, win);
    await turns();
    assert.equal(run.mock.callCount(), 1, 'ran without any timer firing');
  });

  it("runs only after a page server's answer to a handshake sent before it", async () => {
    const win = fakeWindow();
    win.withServer();
    let seenWhenRun: string[] = [];
    win.handshake();
    afterPageTurn(
      () => {
        seenWhenRun = [...win.dispatched];
      },
      150,
      win,
    );
    await turns();
    assert.ok(seenWhenRun.includes('server-ready'), `the answer came first: ${seenWhenRun.join(', ')}`);
  });

  it('is bounded: a page that swallows the probe gets the bound', async () => {
    const win = fakeWindow();
    win.postMessage = () => {};
    const run = mock.fn();
    afterPageTurn(run, 150, win);
    await turns();
    assert.equal(run.mock.callCount(), 0);
    mock.timers.tick(150);
    assert.equal(run.mock.callCount(), 1);
  });

  it('cancelled, it never runs', async () => {
    const win = fakeWindow();
    const run = mock.fn();
    const cancel = afterPageTurn(run, 150, win);
    cancel();
    await turns();
    mock.timers.tick(150);
    assert.equal(run.mock.callCount(), 0);
  });
});
