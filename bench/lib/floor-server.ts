import { type WebSocket, WebSocketServer } from 'ws';

/**
 * The Node end of the floor: a bare WebSocket server the floor extension dials. `roundTrip` goes
 * all the way to the page and back; `echo` only to the worker and back.
 */
export interface FloorServer {
  port: number;
  /** Resolves with the tab id once the floor's content script in a page has its Port. */
  waitForTab(timeoutMs: number): Promise<number>;
  roundTrip(tabId: number): Promise<void>;
  /** The same path, but the page side is a tools/call answered by the page SDK's tab server. */
  pageSdkRoundTrip(tabId: number): Promise<void>;
  echo(): Promise<void>;
  close(): Promise<void>;
}

interface FloorMessage {
  type: string;
  n?: number;
  tabId?: number;
}

export async function startFloorServer(): Promise<FloorServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done) => wss.once('listening', done));
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let socket: WebSocket | undefined;
  const readyTabs: number[] = [];
  const tabWaiters: Array<(tabId: number) => void> = [];
  const pending = new Map<number, () => void>();
  let next = 0;

  wss.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as FloorMessage;
      if (message.type === 'ready' && message.tabId !== undefined) {
        readyTabs.push(message.tabId);
        for (const waiter of tabWaiters.splice(0)) waiter(message.tabId);
      } else if ((message.type === 'pong' || message.type === 'echo') && message.n !== undefined) {
        pending.get(message.n)?.();
        pending.delete(message.n);
      }
    });
  });

  const send = (message: FloorMessage): Promise<void> => {
    const live = socket;
    if (!live) return Promise.reject(new Error('the floor extension is not connected'));
    const n = next++;
    return new Promise<void>((done, fail) => {
      const timer = setTimeout(() => {
        pending.delete(n);
        fail(new Error(`floor ${message.type} ${n} got no answer in 5 s`));
      }, 5_000);
      pending.set(n, () => {
        clearTimeout(timer);
        done();
      });
      live.send(JSON.stringify({ ...message, n }));
    });
  };

  return {
    port,
    waitForTab: (timeoutMs) => {
      const known = readyTabs[readyTabs.length - 1];
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error('the floor content script never reported a tab')), timeoutMs);
        tabWaiters.push((tabId) => {
          clearTimeout(timer);
          done(tabId);
        });
      });
    },
    roundTrip: (tabId) => send({ type: 'ping', tabId }),
    pageSdkRoundTrip: (tabId) => send({ type: 'mcp', tabId }),
    echo: () => send({ type: 'echo' }),
    close: () =>
      new Promise((done) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => done());
      }),
  };
}
