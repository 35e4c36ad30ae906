import WebSocket from 'ws';
import { devtoolsPortOf } from './cdp';
import { waitFor } from './wait';

type Target = { type: string; url: string; webSocketDebuggerUrl: string };

/**
 * Reads a page's state over a bare CDP connection that lasts one evaluation. Playwright is kept
 * away from dialog tests on purpose: a page it is attached to gets its dialogs dismissed for it.
 */
export async function evaluateIn<T>(stderr: () => string, urlPart: string, expression: string): Promise<T> {
  const profileDir = await waitFor(() => /"profileDir":"([^"]+)"/.exec(stderr())?.[1], 10_000, 'the browser profile');
  return evaluateOnPort<T>(await devtoolsPortOf(profileDir, 10_000), urlPart, expression);
}

/** Evaluates in the extension's background worker (a setting the options page would make, for one). */
export async function evaluateInWorker<T>(stderr: () => string, expression: string): Promise<T> {
  const profileDir = await waitFor(() => /"profileDir":"([^"]+)"/.exec(stderr())?.[1], 10_000, 'the browser profile');
  return evaluateOnPort<T>(
    await devtoolsPortOf(profileDir, 10_000),
    'chrome-extension://',
    expression,
    'service_worker',
  );
}

/** The same, in a browser whose DevTools port is known (one the caller launched). */
export async function evaluateOnPort<T>(port: string, urlPart: string, expression: string, type = 'page'): Promise<T> {
  const target = await waitFor(
    async () => {
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Target[];
      return targets.find((candidate) => candidate.type === type && candidate.url.includes(urlPart));
    },
    10_000,
    `a ${type} at ${urlPart}`,
  );
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  try {
    await new Promise((opened, failed) => {
      socket.once('open', opened);
      socket.once('error', failed);
    });
    const reply = await new Promise<{ result?: { result?: { value?: unknown } }; error?: unknown }>(
      (answered, failed) => {
        const timer = setTimeout(() => failed(new Error(`no answer to ${expression} within 10 s`)), 10_000);
        socket.on('message', (data) => {
          const message = JSON.parse(String(data)) as {
            id?: number;
            result?: { result?: { value?: unknown } };
            error?: unknown;
          };
          if (message.id !== 1) return;
          clearTimeout(timer);
          answered(message);
        });
        socket.send(
          JSON.stringify({
            id: 1,
            method: 'Runtime.evaluate',
            params: { expression, returnByValue: true, awaitPromise: true },
          }),
        );
      },
    );
    if (reply.error) throw new Error(`Runtime.evaluate failed: ${JSON.stringify(reply.error)}`);
    return reply.result?.result?.value as T;
  } finally {
    socket.close();
  }
}

/**
 * Whether any DevTools client (the extension's chrome.debugger session among them) is attached to
 * the page at `urlPart`, asked over the browser's own endpoint so the question attaches nothing to it.
 */
export async function pageHasDebugger(stderr: () => string, urlPart: string): Promise<boolean> {
  const profileDir = await waitFor(() => /"profileDir":"([^"]+)"/.exec(stderr())?.[1], 10_000, 'the browser profile');
  const port = await devtoolsPortOf(profileDir, 10_000);
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  try {
    await new Promise((opened, failed) => {
      socket.once('open', opened);
      socket.once('error', failed);
    });
    const targets = await new Promise<Array<{ type: string; url: string; attached: boolean }>>((answered, failed) => {
      const timer = setTimeout(() => failed(new Error('no answer to Target.getTargets within 10 s')), 10_000);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: { targetInfos: [] } };
        if (message.id !== 1) return;
        clearTimeout(timer);
        answered(message.result?.targetInfos ?? []);
      });
      socket.send(JSON.stringify({ id: 1, method: 'Target.getTargets' }));
    });
    const page = targets.find((target) => target.type === 'page' && target.url.includes(urlPart));
    if (!page) throw new Error(`no page at ${urlPart}`);
    return page.attached;
  } finally {
    socket.close();
  }
}
