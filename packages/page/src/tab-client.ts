import { DEFAULT_TAB_CHANNEL, ErrorCode, isTabEnvelope, ProtocolError, tabEnvelope } from '@tabmcp/protocol/light';
import { isRpcNotification, isRpcResponse, type RpcNotification } from './jsonrpc-guard';

export interface TabClientOptions {
  channel?: string;
  window?: Window;
  /** How long `connect()` waits for a server to answer the handshake. */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * An MCP client for a tab server in the same window (MCP-B's `TabClientTransport` wire format),
 * minimal by design: the content script uses it to list and call a page's tools.
 */
export class TabClient {
  readonly #win: Window;
  readonly #channel: string;
  readonly #connectTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  // A random prefix keeps our ids apart from any other client on the same channel.
  readonly #idPrefix = `tabmcp-${Math.random().toString(36).slice(2, 10)}-`;
  readonly #pending = new Map<string, Pending>();
  #nextId = 1;
  #closed = false;
  #ready: Promise<void> | undefined;
  #markReady: (() => void) | undefined;
  onnotification: ((notification: RpcNotification) => void) | undefined;
  onclose: (() => void) | undefined;

  constructor(options: TabClientOptions = {}) {
    this.#win = options.window ?? window;
    this.#channel = options.channel ?? DEFAULT_TAB_CHANNEL;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#win.addEventListener('message', this.#onMessage);
  }

  /** Resolves once a server answered the handshake; rejects after the connect timeout. */
  connect(): Promise<void> {
    if (this.#ready) return this.#ready;
    this.#ready = new Promise<void>((resolve, reject) => {
      const retry = setInterval(() => this.#post('mcp-check-ready'), 250);
      const timer = setTimeout(() => {
        clearInterval(retry);
        reject(new ProtocolError(ErrorCode.RequestTimeout, `No MCP server answered on channel "${this.#channel}"`));
      }, this.#connectTimeoutMs);
      this.#markReady = () => {
        clearInterval(retry);
        clearTimeout(timer);
        resolve();
      };
      this.#post('mcp-check-ready');
    });
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

  request(method: string, params?: unknown, timeoutMs = this.#requestTimeoutMs): Promise<unknown> {
    if (this.#closed) return Promise.reject(new ProtocolError(ErrorCode.InternalError, 'Tab client is closed'));
    const id = `${this.#idPrefix}${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new ProtocolError(ErrorCode.RequestTimeout, `The page did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#post({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  notify(method: string, params?: unknown): void {
    this.#post({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  close(reason = 'Tab client closed'): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#win.removeEventListener('message', this.#onMessage);
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new ProtocolError(ErrorCode.InternalError, reason));
      this.#pending.delete(id);
    }
    this.onclose?.();
  }

  #post(payload: unknown): void {
    const origin = this.#win.location.origin === 'null' ? '*' : this.#win.location.origin;
    this.#win.postMessage(tabEnvelope(this.#channel, 'client-to-server', payload), origin);
  }

  readonly #onMessage = (event: MessageEvent) => {
    if (event.source !== this.#win || !isTabEnvelope(event.data, this.#channel, 'server-to-client')) return;
    const { payload } = event.data;
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
      const pending = this.#pending.get(id);
      if (!pending) return;
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      if (payload.error)
        pending.reject(new ProtocolError(payload.error.code, payload.error.message, payload.error.data));
      else pending.resolve(payload.result);
      return;
    }
    if (isRpcNotification(payload)) this.onnotification?.(payload);
  };
}
