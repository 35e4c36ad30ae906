import {
  DEFAULT_TAB_CHANNEL,
  ErrorCode,
  isTabEnvelope,
  PendingRequests,
  ProtocolError,
  tabEnvelope,
  waitUntil,
} from '@tabmcp/protocol/light';
import { isRpcNotification, isRpcResponse, type RpcNotification } from './jsonrpc-guard';

export interface TabClientOptions {
  channel?: string;
  /** The window this client lives in (it receives the replies); defaults to the current one. */
  window?: Window;
  /** The window of the server (a parent, an iframe's contentWindow); defaults to `window` itself. */
  target?: Window;
  /**
   * Origins the server in `target` may have; required when `target` is another window. The
   * handshake goes to each of them and the client then keeps to the one that answered.
   */
  allowedOrigins?: string[];
  /** How long `connect()` waits for a server to answer the handshake. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/**
 * An MCP client for a tab server in the same window (MCP-B's `TabClientTransport` wire format),
 * minimal by design: the content script uses it to list and call a page's tools.
 */
export class TabClient {
  readonly #win: Window;
  readonly #target: Window;
  readonly #origins: string[];
  #serverOrigin: string | undefined;
  readonly #channel: string;
  readonly #connectTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  // A random prefix keeps our ids apart from any other client on the same channel.
  readonly #idPrefix = `tabmcp-${Math.random().toString(36).slice(2, 10)}-`;
  readonly #pending = new PendingRequests<unknown>();
  #closed = false;
  #ready: Promise<void> | undefined;
  #markReady: (() => void) | undefined;
  onnotification: ((notification: RpcNotification) => void) | undefined;
  onclose: (() => void) | undefined;

  constructor(options: TabClientOptions = {}) {
    this.#win = options.window ?? window;
    this.#target = options.target ?? this.#win;
    if (this.#target === this.#win) {
      this.#origins = [this.#win.location.origin === 'null' ? '*' : this.#win.location.origin];
    } else {
      this.#origins = [...(options.allowedOrigins ?? [])];
      if (this.#origins.length === 0) {
        throw new TypeError("TabClient: list the origins the other window may have (allowedOrigins); '*' allows all");
      }
    }
    this.#channel = options.channel ?? DEFAULT_TAB_CHANNEL;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#win.addEventListener('message', this.#onMessage);
  }

  /** Resolves once a server answered the handshake; rejects after the connect timeout. */
  connect(): Promise<void> {
    // A server that starts later than this client misses the first check: ask again every 250 ms.
    this.#ready ??= waitUntil<void>(
      (done) => {
        this.#markReady = () => done();
        const retry = setInterval(() => this.#post('mcp-check-ready'), 250);
        this.#post('mcp-check-ready');
        return () => clearInterval(retry);
      },
      {
        timeoutMs: this.#connectTimeoutMs,
        onTimeout: () => {
          throw new ProtocolError(ErrorCode.RequestTimeout, this.#silenceMessage());
        },
      },
    );
    return this.#ready;
  }

  async initialize(): Promise<unknown> {
    await this.connect();
    const result = await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'tabmcp-content-script', version: '0.1.0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  /** Rejects after `timeoutMs`, or with the reason when the client closes. */
  request(method: string, params?: unknown, timeoutMs = this.#requestTimeoutMs): Promise<unknown> {
    const id = this.#pending.nextId(this.#idPrefix);
    const answer = this.#pending.wait(id, 'page', timeoutMs, () => `The page (${method})`, {
      timeoutError: () =>
        new ProtocolError(ErrorCode.RequestTimeout, `The page did not answer ${method} within ${timeoutMs} ms`),
    });
    if (!this.#closed) this.#post({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return answer;
  }

  notify(method: string, params?: unknown): void {
    this.#post({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  close(reason = 'Tab client closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#win.removeEventListener('message', this.#onMessage);
    this.#pending.close(() => new ProtocolError(ErrorCode.InternalError, reason));
    this.onclose?.();
  }

  /** The origin of the server that answered, once it did. */
  get serverOrigin(): string | undefined {
    return this.#serverOrigin;
  }

  #silenceMessage(): string {
    if (this.#target === this.#win) {
      return `No MCP server answered on channel "${this.#channel}" within ${this.#connectTimeoutMs} ms`;
    }
    return `No MCP provider answered from ${this.#origins.join(', ')} on channel "${this.#channel}" within ${this.#connectTimeoutMs} ms: the other window must serve one (serveWindow) and allow this origin (${this.#win.location.origin}) in its allowedOrigins`;
  }

  #post(payload: unknown): void {
    const envelope = tabEnvelope(this.#channel, 'client-to-server', payload);
    const known = this.#serverOrigin;
    const origins = known ? [known === 'null' ? '*' : known] : this.#origins;
    for (const origin of origins) {
      try {
        this.#target.postMessage(envelope, origin);
      } catch {
        // The target window closed, or an origin in the list is malformed: the timeout reports it.
      }
    }
  }

  #fromServer(event: MessageEvent): boolean {
    if (event.source !== this.#target || !isTabEnvelope(event.data, this.#channel, 'server-to-client')) return false;
    if (this.#target === this.#win) return true;
    if (this.#serverOrigin !== undefined) return event.origin === this.#serverOrigin;
    if (!(this.#origins.includes('*') || this.#origins.includes(event.origin))) return false;
    this.#serverOrigin = event.origin;
    return true;
  }

  readonly #onMessage = (event: MessageEvent) => {
    if (!this.#fromServer(event)) return;
    const { payload } = event.data as { payload: unknown };
    if (payload === 'mcp-server-ready') {
      this.#markReady?.();
      return;
    }
    if (payload === 'mcp-server-stopped') {
      this.close('The page stopped its MCP server');
      return;
    }
    if (isRpcResponse(payload)) {
      const id = String(payload.id);
      if (payload.error)
        this.#pending.reject(id, new ProtocolError(payload.error.code, payload.error.message, payload.error.data));
      else this.#pending.resolve(id, payload.result);
      return;
    }
    if (isRpcNotification(payload)) this.onnotification?.(payload);
  };
}
