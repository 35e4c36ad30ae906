import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  type BrowserInfo,
  type CallToolResult,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ErrorCode,
  type ExtensionToServer,
  ExtensionToServer as ExtensionToServerSchema,
  MAX_MESSAGE_BYTES,
  type OpenTabResult,
  type PageMethod,
  PendingRequests,
  ProtocolError,
  parseMessage,
  type ServerToExtension,
  type TabInfo,
} from '@tabmcp/protocol';
import { type WebSocket, WebSocketServer } from 'ws';
import type { BrowserConnection } from '../core/browser-connection';

export interface LinkServerOptions {
  host: string;
  port: number;
  /** Exact `Origin` values allowed to connect: our extension's `chrome-extension://<id>`. */
  allowedOrigins: readonly string[];
  /** Pairing token the extension must present as `?token=`. */
  token: string;
  requestTimeoutMs?: number;
  log?: (event: string, details?: Record<string, unknown>) => void;
}

/** The extension pings every 20 s; silence for this long means the worker or the browser is gone. */
const SILENCE_LIMIT_MS = 50_000;

type Reply = { kind: 'connected'; browser: BrowserInfo; tabs: TabInfo[] } | { kind: 'value'; value: unknown };

/**
 * The server end of the browser link: a WebSocket endpoint on loopback that only our extension,
 * holding the pairing token, may use. It turns the message protocol into the BrowserConnection
 * calls the session core uses; a dropped link answers every waiting call at once.
 */
export class WebSocketBrowserLink implements BrowserConnection {
  readonly #options: LinkServerOptions;
  readonly #log: (event: string, details?: Record<string, unknown>) => void;
  readonly #pending = new PendingRequests<Reply>();
  readonly #upWaiters = new Set<(up: boolean) => void>();
  #http: Server | undefined;
  #wss: WebSocketServer | undefined;
  #socket: WebSocket | undefined;
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  #port = 0;
  onevent: BrowserConnection['onevent'];
  onup: BrowserConnection['onup'];
  ondown: BrowserConnection['ondown'];

  constructor(options: LinkServerOptions) {
    this.#options = options;
    this.#log = options.log ?? (() => {});
  }

  get port(): number {
    return this.#port;
  }

  get isUp(): boolean {
    return this.#socket !== undefined;
  }

  async start(): Promise<number> {
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
    const http = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('tabmcp browser link: WebSocket only\n');
    });
    http.on('upgrade', (request, socket, head) => {
      const refusal = this.#refuse(request);
      if (refusal) {
        this.#log('link.refused', { origin: request.headers.origin, reason: refusal });
        socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal}\n`);
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
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
    this.#wss?.close();
    const http = this.#http;
    this.#http = undefined;
    if (http) await new Promise<void>((resolve) => http.close(() => resolve()));
  }

  waitUntilUp(timeoutMs: number): Promise<boolean> {
    if (this.isUp) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (up: boolean) => {
        clearTimeout(timer);
        this.#upWaiters.delete(done);
        resolve(up);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.#upWaiters.add(done);
    });
  }

  async connect() {
    const reply = await this.#request({ type: 'connect', requestId: '' }, 'connect');
    if (reply.kind !== 'connected')
      throw new ProtocolError(ErrorCode.InternalError, 'The extension answered connect oddly');
    return { browser: reply.browser, tabs: reply.tabs };
  }

  async openTab(url: string, focus: boolean, waitForToolsMs: number): Promise<OpenTabResult> {
    const timeout = 30_000 + waitForToolsMs + 5_000;
    return (await this.#value(
      { type: 'openTab', requestId: '', url, focus, waitForToolsMs },
      'openTab',
      timeout,
    )) as OpenTabResult;
  }

  async focusTab(tabId: number) {
    return (await this.#value({ type: 'focusTab', requestId: '', tabId }, 'focusTab')) as { tab: TabInfo };
  }

  async closeTab(tabId: number) {
    return (await this.#value({ type: 'closeTab', requestId: '', tabId }, 'closeTab')) as {
      closed: true;
      tabId: number;
    };
  }

  async callTool(tabId: number, toolName: string, args: Record<string, unknown>, timeoutMs: number) {
    // The extension enforces the page's timeout; ours only catches a link that stopped answering.
    const reply = await this.#request(
      { type: 'callTool', callId: '', tabId, toolName, args, timeoutMs },
      `callTool ${toolName}`,
      timeoutMs + 2_000,
    );
    return (reply.kind === 'value' ? reply.value : undefined) as CallToolResult;
  }

  async pageRequest(tabId: number, method: PageMethod, params?: Record<string, unknown>): Promise<unknown> {
    return this.#value({ type: 'pageRequest', requestId: '', tabId, method, ...(params ? { params } : {}) }, method);
  }

  async #value(message: ServerToExtension, what: string, timeoutMs?: number): Promise<unknown> {
    const reply = await this.#request(message, what, timeoutMs);
    return reply.kind === 'value' ? reply.value : undefined;
  }

  #request(message: ServerToExtension, what: string, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<Reply> {
    const socket = this.#socket;
    if (!socket) {
      return Promise.reject(
        new ProtocolError(
          ErrorCode.BrowserNotConnected,
          'The browser extension is not connected; call connect_browser.',
        ),
      );
    }
    const id = this.#pending.nextId('s');
    const answer = this.#pending.wait(id, 'link', timeoutMs, () => `The extension (${what})`);
    const withId = message.type === 'callTool' ? { ...message, callId: id } : { ...message, requestId: id };
    socket.send(JSON.stringify(withId));
    return answer;
  }

  #refuse(request: IncomingMessage): string | undefined {
    const origin = request.headers.origin;
    if (!origin || !this.#options.allowedOrigins.includes(origin)) {
      return `Origin ${origin ?? '(none)'} is not allowed: only the tabmcp extension may connect.`;
    }
    const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token') ?? '';
    if (!safeEqual(token, this.#options.token)) {
      return 'Wrong or missing pairing token: pair the extension with this tabmcp server (see docs/user-guide.md).';
    }
    return undefined;
  }

  #accept(ws: WebSocket): void {
    if (this.#socket) {
      this.#log('link.replaced', {});
      this.#drop('A newer extension connection replaced this one');
    }
    this.#socket = ws;
    this.#log('link.up', {});
    this.#touch();
    ws.on('message', (data, isBinary) => {
      if (this.#socket !== ws) return;
      this.#touch();
      if (isBinary) {
        this.#log('link.rejected', { reason: 'binary frame' });
        return;
      }
      const parsed = parseMessage(ExtensionToServerSchema, data.toString(), 'extension message');
      if (!parsed.ok) {
        this.#log('link.rejected', { reason: parsed.error.message });
        return;
      }
      this.#onMessage(ws, parsed.value);
    });
    ws.on('close', (code, reason) => {
      if (this.#socket === ws)
        this.#drop(`The browser extension disconnected (code ${code}${reason.length ? `, ${reason}` : ''})`);
    });
    ws.on('error', (error) => this.#log('link.error', { error: error.message }));
    for (const waiter of [...this.#upWaiters]) waiter(true);
    this.onup?.();
  }

  #onMessage(ws: WebSocket, message: ExtensionToServer): void {
    switch (message.type) {
      case 'ping':
        ws.send(JSON.stringify({ type: 'pong' }));
        return;
      case 'hello':
        this.#log('link.hello', { extensionVersion: message.extensionVersion, browser: message.browser });
        return;
      case 'connected':
        this.#pending.resolve(message.requestId, { kind: 'connected', browser: message.browser, tabs: message.tabs });
        return;
      case 'toolResult':
        if (message.error !== undefined || !message.result) {
          this.#pending.reject(
            message.callId,
            new ProtocolError(ErrorCode.InternalError, message.error ?? 'no result'),
          );
        } else {
          this.#pending.resolve(message.callId, { kind: 'value', value: message.result });
        }
        return;
      case 'response':
        if (message.error) {
          this.#pending.reject(message.requestId, new ProtocolError(message.error.code, message.error.message));
        } else {
          this.#pending.resolve(message.requestId, { kind: 'value', value: message.result });
        }
        return;
      case 'disconnected':
        this.#drop('The browser is closing');
        return;
      default:
        this.onevent?.(message);
    }
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
    this.#pending.rejectAll(() => new ProtocolError(ErrorCode.BrowserNotConnected, reason));
    this.#log('link.down', { reason });
    this.ondown?.(reason);
  }
}

function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
