/** The part of a window the probe uses; a test passes a stand-in. */
export type ProbedWindow = Pick<Window, 'postMessage' | 'addEventListener' | 'removeEventListener'> & {
  location: { origin: string };
};

/** Marks the content script's probe among the page's messages. */
const PROBE_KEY = 'tabmcpPageTurn';
/**
 * A page server answers a message from its `message` listener, so its answer is queued behind
 * whatever was queued when the message was delivered: behind the first probe, ahead of the second
 * (which the first one's delivery posts). Two hops see every answer a listener gives at once.
 */
const HOPS = 2;

/**
 * Runs `run` once every page server that was asked something before this call had its turn to
 * answer: after two round trips of the window's own message queue, no fixed wait (docs/decisions.md,
 * 190). `boundMs` is the bound for a page that swallows the probe. Returns how to cancel.
 */
export function afterPageTurn(run: () => void, boundMs: number, win: ProbedWindow = window): () => void {
  const nonce = Math.random().toString(36).slice(2);
  const targetOrigin = win.location.origin === 'null' ? '*' : win.location.origin;
  let hops = 0;
  let done = false;
  const post = () => win.postMessage({ [PROBE_KEY]: nonce }, targetOrigin);
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(bound);
    win.removeEventListener('message', onMessage);
  };
  const onMessage = (event: MessageEvent) => {
    if (event.source !== win || (event.data as Record<string, unknown> | null)?.[PROBE_KEY] !== nonce) return;
    hops += 1;
    if (hops < HOPS) {
      post();
      return;
    }
    finish();
    run();
  };
  const bound = setTimeout(() => {
    finish();
    run();
  }, boundMs);
  win.addEventListener('message', onMessage);
  // After the current task's own posts (the discovery handshakes go out in the same task).
  queueMicrotask(() => {
    if (!done) post();
  });
  return finish;
}
