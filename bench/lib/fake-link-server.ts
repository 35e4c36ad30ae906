import type { ExtensionToServer, ServerToExtension } from '@tabmcp/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import { authenticateDialler } from '../../packages/server/src/link/link-auth';

type Reply = Extract<ExtensionToServer, { type: 'connected' | 'response' | 'toolResult' }>;

/**
 * Plays the tabmcp server's end of the browser link, bare: it sends the protocol's requests to the
 * real extension and times nothing itself. With it, a page tool call can be measured from the
 * extension's WebSocket to the page and back, without the MCP server and stdio in front.
 * The extension says nothing before the listener proves it holds the pairing token, so the
 * server's own handshake (link-auth.ts) runs first; it costs nothing per call once done.
 */
export interface FakeLinkServer {
  port: number;
  waitForExtension(timeoutMs: number): Promise<void>;
  request(message: ServerToExtension, timeoutMs?: number): Promise<Reply>;
  close(): Promise<void>;
}

export async function startFakeLinkServer(token: string): Promise<FakeLinkServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done) => wss.once('listening', done));
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let socket: WebSocket | undefined;
  const upWaiters: Array<() => void> = [];
  const pending = new Map<string, (reply: Reply) => void>();
  let next = 0;
  let refusal: string | undefined;

  const serve = (ws: WebSocket) => {
    socket = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ExtensionToServer;
      if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      else if (message.type === 'hello') for (const waiter of upWaiters.splice(0)) waiter();
      else if (message.type === 'toolResult') pending.get(message.callId)?.(message);
      else if (message.type === 'connected' || message.type === 'response') pending.get(message.requestId)?.(message);
    });
  };
  wss.on('connection', (ws, request) =>
    authenticateDialler(
      ws,
      token,
      request.socket.localPort ?? 0,
      () => serve(ws),
      (reason) => {
        refusal = reason;
      },
    ),
  );

  return {
    port,
    waitForExtension: (timeoutMs) =>
      socket
        ? Promise.resolve()
        : new Promise((done, fail) => {
            const timer = setTimeout(() => {
              const why = refusal ? `its link authentication failed: ${refusal}` : 'it never dialled in';
              fail(new Error(`the tabmcp extension did not say hello within ${timeoutMs} ms: ${why}`));
            }, timeoutMs);
            upWaiters.push(() => {
              clearTimeout(timer);
              done();
            });
          }),
    request: (message, timeoutMs = 10_000) => {
      const live = socket;
      if (!live) return Promise.reject(new Error('the tabmcp extension is not connected'));
      const id = `b${next++}`;
      const withId = message.type === 'callTool' ? { ...message, callId: id } : { ...message, requestId: id };
      return new Promise<Reply>((done, fail) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          fail(new Error(`no reply to ${message.type} in ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, (reply) => {
          clearTimeout(timer);
          pending.delete(id);
          done(reply);
        });
        live.send(JSON.stringify(withId));
      });
    },
    close: () =>
      new Promise((done) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => done());
      }),
  };
}
