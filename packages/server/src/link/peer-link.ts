import {
  ExtensionToServer as ExtensionToServerSchema,
  KEEPALIVE_INTERVAL_MS,
  type Logger,
  MAX_MESSAGE_BYTES,
  parseMessage,
} from '@tabmcp/protocol';
import WebSocket from 'ws';
import { authenticateListener } from './link-auth';
import type { LinkEndpoint } from './link-endpoint';
import { PEER_PATH } from './websocket-browser-link';

export interface PeerLinkOptions {
  port: number;
  token: string;
  endpoint: LinkEndpoint;
  log?: Logger;
}

/** A peer that stays silent this long (no pong to our pings) is gone. */
const PEER_SILENCE_MS = 50_000;

/**
 * A program that accepts the connection and never answers (issue 28: connect_browser hung for
 * minutes) is given this long to complete the WebSocket handshake; link-auth bounds the rest.
 */
const PEER_HANDSHAKE_TIMEOUT_MS = 5_000;

export type PeerOpenFailure = 'nobody-listens' | 'refused' | 'not-tabmcp';

/**
 * A session's way to the extension through another tabmcp process that owns the port: it speaks
 * the browser link's own messages over a WebSocket at /peer; the owner maps the ids and fans the
 * events out. The endpoint is up while the owner says the extension is ("hello" … "disconnected").
 */
export class PeerLink {
  readonly #options: PeerLinkOptions;
  readonly #log: Logger;
  #socket: WebSocket | undefined;
  #keepalive: ReturnType<typeof setInterval> | undefined;
  #closedByUs = false;
  onclose: (() => void) | undefined;

  constructor(options: PeerLinkOptions) {
    this.#options = options;
    this.#log = options.log ?? (() => {});
  }

  /** Resolves once joined; rejects with the reason this port cannot be joined. */
  open(): Promise<void> {
    const { port, token, endpoint } = this.#options;
    // The token is never sent: both sides prove they hold it (link-auth.ts) before anything else.
    const socket = new WebSocket(`ws://127.0.0.1:${port}${PEER_PATH}`, {
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: PEER_HANDSHAKE_TIMEOUT_MS,
    });
    this.#socket = socket;
    return new Promise<void>((resolve, reject) => {
      const failed = (kind: PeerOpenFailure, detail: string) => reject(Object.assign(new Error(detail), { kind }));
      socket.once('unexpected-response', (_request, response) =>
        response.statusCode === 403
          ? failed('refused', `The tabmcp on port ${port} refused this one (another pairing token?)`)
          : failed('not-tabmcp', `Port ${port} answers HTTP ${response.statusCode}; it is not a tabmcp browser link`),
      );
      socket.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') failed('nobody-listens', error.message);
        else if (/handshake has timed out/i.test(error.message))
          failed(
            'not-tabmcp',
            `Port ${port} accepted the connection but did not answer within ${PEER_HANDSHAKE_TIMEOUT_MS} ms; it is not a tabmcp browser link`,
          );
        else failed('not-tabmcp', error.message);
      });
      let authenticated = false;
      socket.once('open', () => {
        socket.on('error', (error) => this.#log('peer.error', { error: error.message }));
        authenticateListener(socket, token).then(
          () => {
            authenticated = true;
            this.#startKeepalive(socket);
            resolve();
          },
          (error: Error & { kind?: PeerOpenFailure }) => failed(error.kind ?? 'not-tabmcp', error.message),
        );
      });
      socket.on('message', (data, isBinary) => {
        if (!authenticated) return;
        if (isBinary) return;
        const parsed = parseMessage(ExtensionToServerSchema, data.toString(), 'message from the tabmcp peer');
        if (!parsed.ok) {
          this.#log('peer.rejected', { reason: parsed.error.message });
          return;
        }
        const message = parsed.value;
        if (message.type === 'hello') endpoint.attach((request) => socket.send(JSON.stringify(request)));
        else if (message.type === 'disconnected') endpoint.detach('The browser extension disconnected');
        else endpoint.receive(message);
      });
      socket.once('close', () => {
        clearInterval(this.#keepalive);
        endpoint.detach('The tabmcp process that shared the browser link exited; reconnecting');
        if (!this.#closedByUs) this.onclose?.();
      });
    });
  }

  close(): void {
    this.#closedByUs = true;
    clearInterval(this.#keepalive);
    this.#socket?.close(1000, 'done');
    this.#socket = undefined;
  }

  #startKeepalive(socket: WebSocket): void {
    let lastPong = Date.now();
    socket.on('pong', () => {
      lastPong = Date.now();
    });
    this.#keepalive = setInterval(() => {
      if (Date.now() - lastPong > PEER_SILENCE_MS) socket.terminate();
      else socket.ping();
    }, KEEPALIVE_INTERVAL_MS);
    this.#keepalive.unref();
  }
}
