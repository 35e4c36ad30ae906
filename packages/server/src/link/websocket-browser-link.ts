import type { IncomingMessage, Server } from 'node:http';
import {
  BROWSER_LINK_PROTOCOL_VERSION,
  type ExtensionToServer,
  ExtensionToServer as ExtensionToServerSchema,
  type Logger,
  MAX_MESSAGE_BYTES,
  parseMessage,
  ServerToExtension as ServerToExtensionSchema,
} from '@tabmcp/protocol';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { ExtensionMux } from './extension-mux';
import { failedReply } from './failed-reply';
import { HALF_OPEN_BOUNDS, type HalfOpenBounds, HalfOpenGuard } from './half-open';
import { authenticateDialler } from './link-auth';
import type { LinkEndpoint } from './link-endpoint';
import { createServer } from './node-http';
import { type PairingRefusal, pairingRefusalText, type RecentRefusal } from './pairing-refusal';

export interface LinkServerOptions {
  host: string;
  port: number;
  /** Exact `Origin` values allowed to connect: our extension's `chrome-extension://<id>`. */
  allowedOrigins: readonly string[];
  /** Pairing token the extension (and a peer tabmcp) must prove it holds (link-auth.ts); never sent. */
  token: string;
  log?: Logger;
  /** Deadlines and the cap for connections that have not proved the token yet (HALF_OPEN_BOUNDS). */
  halfOpen?: Partial<HalfOpenBounds>;
}

/** The extension pings every 20 s; silence for this long means the worker or the browser is gone. */
const SILENCE_LIMIT_MS = 50_000;
/** Where another tabmcp process joins this one to share the browser (docs/requirements.md#founding-decisions, decision 4). */
export const PEER_PATH = '/peer';

type Hello = Extract<ExtensionToServer, { type: 'hello' }>;

/**
 * The server end of the browser link: a WebSocket endpoint on loopback that only our extension,
 * holding the pairing token, may use. Several agents share it through a multiplexer: the sessions
 * of this process (attachEndpoint) and other tabmcp processes that dial in at /peer with the same
 * token. When the extension's socket drops, every agent's waiting calls are answered at once.
 */
export class WebSocketBrowserLink {
  readonly #options: LinkServerOptions;
  readonly #log: Logger;
  readonly #mux: ExtensionMux;
  readonly #peers = new Set<WebSocket>();
  readonly #halfOpen: HalfOpenGuard;
  readonly #handshakeMs: number;
  #http: Server | undefined;
  #wss: WebSocketServer | undefined;
  #socket: WebSocket | undefined;
  #hello: Hello | undefined;
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  #port = 0;

  constructor(options: LinkServerOptions) {
    this.#options = options;
    this.#log = options.log ?? (() => {});
    this.#mux = new ExtensionMux(this.#log);
    const bounds = { ...HALF_OPEN_BOUNDS, ...options.halfOpen };
    this.#halfOpen = new HalfOpenGuard(bounds, this.#log);
    this.#handshakeMs = bounds.handshakeMs;
  }

  get port(): number {
    return this.#port;
  }

  /** The extension is connected. */
  get isUp(): boolean {
    return this.#socket !== undefined;
  }

  get peerCount(): number {
    return this.#peers.size;
  }

  /** Connections that have not proved the token yet. */
  get halfOpenCount(): number {
    return this.#halfOpen.halfOpen;
  }

  async start(): Promise<number> {
    // Frames up to 4× the message cap are read and refused one by one (the link stays up); only
    // beyond that does the socket itself give up.
    const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * MAX_MESSAGE_BYTES });
    const http = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('tabmcp browser link: WebSocket only\n');
    });
    // Every connection is on a deadline from its first byte until it proves the token (half-open.ts).
    http.on('connection', (socket) => this.#halfOpen.connected(socket));
    http.on('upgrade', (request, socket, head) => {
      const peer = pathOf(request) === PEER_PATH;
      const refusal = peer ? this.#refusePeer(request) : this.#refuseExtension(request);
      if (refusal) {
        const origin = request.headers.origin;
        // Another copy of our extension (store, zip) is worth a next step; a web page is not.
        const fix =
          !peer && origin?.startsWith('chrome-extension://') ? this.#noteRefusal('id-not-allowed', origin) : undefined;
        this.#log('link.refused', { origin, peer, reason: refusal, ...(fix ? { fix } : {}) });
        socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal}\n`);
        this.#halfOpen.refused(request.socket);
        return;
      }
      this.#halfOpen.upgraded(request.socket);
      wss.handleUpgrade(request, socket, head, (ws) =>
        authenticateDialler(
          ws,
          this.#options.token,
          request.socket.localPort ?? 0,
          () => {
            this.#halfOpen.proven(request.socket);
            if (peer) this.#acceptPeer(ws);
            else this.#acceptExtension(ws);
          },
          (reason) => {
            this.#halfOpen.refused(request.socket);
            const kind =
              reason === 'not paired' ? 'not-paired' : reason === 'wrong pairing token' ? 'wrong-token' : undefined;
            const fix = kind && !peer ? this.#noteRefusal(kind) : undefined;
            this.#log('link.refused', { peer, reason, ...(fix ? { fix } : {}) });
          },
          this.#handshakeMs,
        ),
      );
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.#options.port, this.#options.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const address = http.address();
    this.#port = typeof address === 'object' && address ? address.port : this.#options.port;
    this.#http = http;
    this.#wss = wss;
    return this.#port;
  }

  async close(): Promise<void> {
    this.#drop('The tabmcp server is shutting down');
    for (const peer of this.#peers) peer.close(1001, 'tabmcp is shutting down');
    this.#wss?.close();
    this.#halfOpen.close();
    const http = this.#http;
    this.#http = undefined;
    if (http) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  }

  /** Lets a session of this process use the extension; returns how to let go. */
  attachEndpoint(endpoint: LinkEndpoint): () => void {
    let handle: ReturnType<ExtensionMux['addClient']> | undefined;
    handle = this.#mux.addClient({
      deliver: (message) => endpoint.receive(message),
      up: () => endpoint.attach((message) => handle?.send(message)),
      down: (reason) => endpoint.detach(reason),
    });
    return () => {
      handle?.close();
      endpoint.detach('The tabmcp link was handed over');
    };
  }

  /** The last extension turned away, and when: connect_browser tells the agent (pairing-refusal.ts). */
  get recentRefusal(): RecentRefusal | undefined {
    return this.#recentRefusal;
  }

  #recentRefusal: RecentRefusal | undefined;

  #noteRefusal(refusal: PairingRefusal, origin?: string): string {
    const text = pairingRefusalText(refusal, origin);
    this.#recentRefusal = { text, at: performance.now() };
    return text;
  }

  #refuseExtension(request: IncomingMessage): string | undefined {
    const origin = request.headers.origin;
    if (!origin || !this.#options.allowedOrigins.includes(origin)) {
      return `Origin ${origin ?? '(none)'} is not allowed: only the tabmcp extension may connect.`;
    }
    return undefined;
  }

  /** Peers are local processes: a browser always sends an Origin, so any Origin is refused here. */
  #refusePeer(request: IncomingMessage): string | undefined {
    if (request.headers.origin !== undefined) return 'Web pages may not join as a tabmcp peer.';
    return undefined;
  }

  #acceptExtension(ws: WebSocket): void {
    if (this.#socket) {
      this.#log('link.replaced', {});
      this.#drop('A newer extension connection replaced this one');
    }
    this.#socket = ws;
    this.#recentRefusal = undefined;
    this.#log('link.up', {});
    this.#touch();
    ws.on('message', (data, isBinary) => {
      if (this.#socket !== ws) return;
      this.#touch();
      const message = decode(data, isBinary);
      const parsed =
        message === undefined ? undefined : parseMessage(ExtensionToServerSchema, message, 'extension message');
      if (!parsed?.ok) {
        this.#log('link.rejected', { reason: parsed ? parsed.error.message : 'binary frame' });
        // An oversized reply still answers its call, at once, instead of leaving it to time out.
        const answer = message === undefined || !parsed ? undefined : failedReply(message, parsed.error.message);
        if (answer) this.#mux.fromExtension(answer);
        return;
      }
      this.#onExtensionMessage(ws, parsed.value);
    });
    ws.on('close', (code, reason) => {
      if (this.#socket === ws)
        this.#drop(`The browser extension disconnected (code ${code}${reason.length ? `, ${reason}` : ''})`);
    });
    ws.on('error', (error) => this.#log('link.error', { error: error.message }));
    this.#mux.extensionConnected((message) => ws.send(JSON.stringify(message)));
  }

  #onExtensionMessage(ws: WebSocket, message: ExtensionToServer): void {
    switch (message.type) {
      case 'ping':
        ws.send(JSON.stringify({ type: 'pong' }));
        return;
      case 'hello':
        this.#hello = message;
        this.#log('link.hello', { extensionVersion: message.extensionVersion, browser: message.browser });
        for (const peer of this.#peers) peer.send(JSON.stringify(message));
        return;
      case 'disconnected':
        this.#drop('The browser extension ended the link (the browser is closing, or its link settings changed)');
        return;
      default:
        this.#mux.fromExtension(message);
    }
  }

  #acceptPeer(ws: WebSocket): void {
    this.#peers.add(ws);
    const send = (message: ExtensionToServer) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const handle = this.#mux.addClient({
      deliver: send,
      up: () =>
        send(
          this.#hello ?? {
            type: 'hello',
            protocolVersion: BROWSER_LINK_PROTOCOL_VERSION,
            extensionVersion: 'unknown',
            browser: { name: 'unknown', version: 'unknown' },
          },
        ),
      down: () => send({ type: 'disconnected' }),
    });
    this.#log('peer.joined', { peer: handle.id, peers: this.#peers.size });
    ws.on('message', (data, isBinary) => {
      const message = decode(data, isBinary);
      const parsed = message === undefined ? undefined : parseMessage(ServerToExtensionSchema, message, 'peer message');
      if (!parsed?.ok) {
        this.#log('peer.rejected', { peer: handle.id, reason: parsed ? parsed.error.message : 'binary frame' });
        return;
      }
      handle.send(parsed.value);
    });
    ws.on('close', () => {
      this.#peers.delete(ws);
      handle.close();
      this.#log('peer.left', { peer: handle.id, peers: this.#peers.size });
    });
    ws.on('error', (error) => this.#log('peer.error', { peer: handle.id, error: error.message }));
  }

  #touch(): void {
    clearTimeout(this.#silenceTimer);
    this.#silenceTimer = setTimeout(
      () => this.#drop('The extension stopped answering (no ping for 50 s)'),
      SILENCE_LIMIT_MS,
    );
    this.#silenceTimer.unref();
  }

  #drop(reason: string): void {
    const socket = this.#socket;
    if (!socket) return;
    this.#socket = undefined;
    clearTimeout(this.#silenceTimer);
    socket.close(4000, reason.slice(0, 120));
    this.#log('link.down', { reason });
    this.#mux.extensionDisconnected(reason);
  }
}

function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://localhost').pathname;
}

function decode(data: RawData, isBinary: boolean): string | undefined {
  if (isBinary) return undefined;
  return Array.isArray(data) ? Buffer.concat(data).toString() : data.toString();
}
