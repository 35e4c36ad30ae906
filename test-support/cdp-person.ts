import WebSocket from 'ws';
import { waitFor } from './wait';

type Target = { type: string; url: string; webSocketDebuggerUrl: string };

/**
 * A person's hand on a page of the browser, over a bare CDP connection per use (no Playwright, which
 * answers a page's dialogs for it): find a page by its URL, read it, click a control with the
 * browser's own mouse events at the control's centre.
 */
async function pageTarget(port: string, urlPart: string, timeoutMs = 10_000): Promise<Target> {
  return waitFor(
    async () => {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Target[];
      return targets.find((candidate) => candidate.type === 'page' && candidate.url.includes(urlPart));
    },
    timeoutMs,
    `a page at ${urlPart}`,
  );
}

/** Waits until no page at `urlPart` is left (a prompt window that closes once answered). */
export async function noPageAt(port: string, urlPart: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(
    async () => {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Target[];
      return targets.some((candidate) => candidate.type === 'page' && candidate.url.includes(urlPart))
        ? undefined
        : true;
    },
    timeoutMs,
    `no page at ${urlPart}`,
  );
}

/** Opens `url` in a new tab (an extension page, such as the popup, to read it as a person would). */
export async function openPage(port: string, url: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/json/new?${url}`, { method: 'PUT' });
  if (!response.ok) throw new Error(`could not open ${url}: HTTP ${response.status}`);
}

async function session<T>(target: Target, run: (send: Send) => Promise<T>): Promise<T> {
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((opened, failed) => {
    socket.once('open', opened);
    socket.once('error', failed);
  });
  let next = 0;
  const send: Send = (method, params = {}) =>
    new Promise((answered, failed) => {
      const id = ++next;
      const timer = setTimeout(() => failed(new Error(`no answer to ${method} within 10 s`)), 10_000);
      // The page may close on the click (the prompt window closes once answered): that ends the wait too.
      socket.once('close', () => {
        clearTimeout(timer);
        answered({ closed: true });
      });
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== id) return;
        clearTimeout(timer);
        socket.off('message', onMessage);
        if (message.error) failed(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else answered(message.result as Record<string, unknown>);
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await run(send);
  } finally {
    socket.close();
  }
}

type Send = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function evaluate<T>(send: Send, expression: string): Promise<T> {
  const reply = (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as {
    result?: { value?: unknown };
  };
  return reply.result?.value as T;
}

/** The text of `selector` in the page at `urlPart`, once it has some. */
export function textIn(port: string, urlPart: string, selector: string): Promise<string> {
  return waitFor(
    async () => {
      const target = await pageTarget(port, urlPart);
      const text = await session(target, (send) =>
        evaluate<string>(send, `document.querySelector(${JSON.stringify(selector)})?.innerText ?? ''`),
      );
      return text.trim() ? text : undefined;
    },
    10_000,
    `text in ${selector} of ${urlPart}`,
  );
}

/** Clicks `selector` in the page at `urlPart` with the browser's mouse, as a person does. */
export async function clickIn(port: string, urlPart: string, selector: string): Promise<void> {
  const target = await pageTarget(port, urlPart);
  await session(target, async (send) => {
    const point = await waitFor(
      () =>
        evaluate<{ x: number; y: number } | null>(
          send,
          `(() => { const node = document.querySelector(${JSON.stringify(selector)}); if (!node || node.disabled) return null;
            const box = node.getBoundingClientRect(); return box.width ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null; })()`,
        ).then((found) => found ?? undefined),
      10_000,
      `${selector} in ${urlPart}`,
    );
    await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
    for (const type of ['mousePressed', 'mouseReleased'])
      await send('Input.dispatchMouseEvent', { type, x: point.x, y: point.y, button: 'left', clickCount: 1 });
  });
}
