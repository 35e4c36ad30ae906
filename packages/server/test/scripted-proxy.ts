import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';

type Json = Record<string, unknown>;

/** One request from the client, with what the scripted proxy may answer it with. */
export interface ProxyRequest {
  id: number;
  method: string;
  params: Json;
  /** The JSON-RPC answer, not yet sent: `send` or `sendTogether` it. */
  answer(result: unknown): Json;
}

/**
 * A proxy of the test's own making at `ws://127.0.0.1:<port>/mcp`: it accepts the handshake and the
 * connect to one browser, and hands every forwarded method to `onRequest`. `sendTogether` writes
 * several messages in one write to the socket, so the client reads them in one chunk (the order a
 * busy client sees messages that were sent a few milliseconds apart).
 */
export async function startScriptedProxy(onRequest: (request: ProxyRequest, proxy: ScriptedProxy) => void) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/mcp' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  let raw: Socket | undefined;
  const proxy = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Requests seen so far, in order. */
    seen: [] as ProxyRequest[],
    send(message: Json) {
      proxy.sendTogether([message]);
    },
    sendTogether(messages: Json[]) {
      if (!raw) throw new Error('no client is connected');
      raw.write(Buffer.concat(messages.map((message) => textFrame(JSON.stringify(message)))));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.on('connection', (socket, upgrade) => {
    raw = upgrade.socket as Socket;
    socket.on('message', (data) => {
      const { id, method, params = {} } = JSON.parse(String(data)) as { id: number; method: string; params?: Json };
      const request = { id, method, params, answer: (result: unknown) => ({ jsonrpc: '2.0', id, result }) };
      proxy.seen.push(request);
      const own = ownAnswer(method);
      if (own) proxy.send(request.answer(own));
      else onRequest(request, proxy);
    });
  });
  return proxy;
}

export type ScriptedProxy = Awaited<ReturnType<typeof startScriptedProxy>>;

function ownAnswer(method: string): Json | undefined {
  if (method === 'mcp_handshake') return { authenticated: true, user_id: 'user-1', mcp_client_id: 'client-1' };
  if (method === 'list_extensions') return { extensions: [{ id: 'ext-1', name: 'Browser', connected: true }] };
  if (method === 'connect') return { connection_id: 'conn-1', extension_id: 'ext-1', extension_name: 'Browser' };
  return undefined;
}

/** An unmasked text frame, as a server sends it (RFC 6455 section 5.2). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  let header: Buffer;
  if (length < 126) header = Buffer.from([0x81, length]);
  else if (length < 65_536) {
    header = Buffer.alloc(4);
    header.writeUInt8(0x81, 0);
    header.writeUInt8(126, 1);
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(0x81, 0);
    header.writeUInt8(127, 1);
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}
