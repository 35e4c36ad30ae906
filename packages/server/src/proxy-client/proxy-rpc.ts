import {
  ErrorCode,
  JsonRpcMessage,
  type Logger,
  MAX_MESSAGE_BYTES,
  PendingRequests,
  ProtocolError,
  parseMessage,
} from '@tabmcp/protocol';
import WebSocket, { type RawData } from 'ws';

/** How long the proxy gets to accept the WebSocket. */
const OPEN_TIMEOUT_MS = 10_000;
/** A proxy that misses two pings in a row is considered gone (a half-open TCP connection). */
const PING_EVERY_MS = 15_000;

/**
 * An answer and its place among the frames received. Frames arrive in the order the proxy relays the
 * browser's answers, but the code awaiting two of them may resume in the other order (another await in
 * between, or both read in one chunk): the place tells which is the newer (known-tabs.ts).
 */
export interface HeardAnswer {
  value: unknown;
  heardAt: number;
}

/**
 * JSON-RPC 2.0 over one WebSocket to the proxy's /mcp endpoint: numbered requests, each answered
 * once or rejected (its own timeout, the socket closing, or `failAll`), and notifications.
 */
export class ProxyRpc {
  readonly #socket: WebSocket;
  readonly #pending = new PendingRequests<HeardAnswer>();
  readonly #closed: Promise<string>;
  readonly #ping: ReturnType<typeof setInterval>;
  #nextId = 0;
  /** Frames received so far by every socket of this process: places stay comparable across a reconnect. */
  static #heard = 0;
  #alive = true;
  #closeReason: string | undefined;
  onnotification: ((method: string, params: unknown) => void) | undefined;

  private constructor(socket: WebSocket, log: Logger) {
    this.#socket = socket;
    this.#closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        clearInterval(this.#ping);
        this.#closeReason = `the proxy closed the connection (code ${code}${reason.length ? `, ${reason}` : ''})`;
        this.failAll(
          new ProtocolError(ErrorCode.BrowserNotConnected, `The link to the proxy dropped: ${this.#closeReason}`),
        );
        resolve(this.#closeReason);
      });
    });
    socket.on('error', (error) => log('proxy.socket-error', { error: error.message }));
    socket.on('pong', () => {
      this.#alive = true;
    });
    socket.on('message', (data, isBinary) => this.#onFrame(data, isBinary, log));
    this.#ping = setInterval(() => {
      if (!this.#alive) {
        socket.terminate();
        return;
      }
      this.#alive = false;
      socket.ping();
    }, PING_EVERY_MS);
    this.#ping.unref();
  }

  /**
   * `token` goes in the upgrade's Authorization header: the proxy checks it before a socket exists,
   * and a socket that came with a valid token never counts toward the budget of anonymous ones, so
   * sockets held open by others cannot lock this client out (issue 26).
   */
  static open(url: string, log: Logger, token?: string): Promise<ProxyRpc> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        maxPayload: MAX_MESSAGE_BYTES,
        handshakeTimeout: OPEN_TIMEOUT_MS,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
      const fail = (error: Error, code: number = ErrorCode.BrowserNotConnected) => {
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.terminate();
        reject(new ProtocolError(code, `Cannot reach the proxy at ${url}: ${error.message}`));
      };
      socket.once('error', fail);
      // A refused upgrade says why in its JSON body (`{"error": "Authentication failed: …"}`): keep that.
      socket.once('unexpected-response', (_request, response) => {
        const status = `HTTP ${response.statusCode} ${response.statusMessage ?? ''}`.trim();
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < 2_048) body += chunk;
        });
        response.once('error', () => fail(new Error(status)));
        // 401 is the proxy's answer to a token it refuses at the upgrade.
        const code = response.statusCode === 401 ? ErrorCode.TokenRefused : ErrorCode.BrowserNotConnected;
        response.once('end', () => fail(new Error(upgradeRefusal(status, body)), code));
      });
      socket.once('open', () => {
        socket.off('error', fail);
        resolve(new ProxyRpc(socket, log));
      });
    });
  }

  get isOpen(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  /** Resolves with the reason once the socket closed. */
  get closed(): Promise<string> {
    return this.#closed;
  }

  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    return this.requestHeard(method, params, timeoutMs).then((answer) => answer.value);
  }

  /** `onId`: hears the request's id as it goes (a mid-call notification names the call by it). */
  requestHeard(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    onId?: (id: string) => void,
  ): Promise<HeardAnswer> {
    if (!this.isOpen) {
      return Promise.reject(
        new ProtocolError(
          ErrorCode.BrowserNotConnected,
          `The link to the proxy is down: ${this.#closeReason ?? 'closed'}`,
        ),
      );
    }
    this.#nextId += 1;
    const id = this.#nextId;
    const answer = this.#pending.wait(String(id), 'rpc', timeoutMs, () => `The proxy (${method})`);
    onId?.(String(id));
    this.#socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer;
  }

  /** Answers every waiting request with this error (the browser behind the proxy went away). */
  failAll(error: Error): void {
    this.#pending.rejectAll(() => error);
  }

  close(): void {
    clearInterval(this.#ping);
    if (this.#socket.readyState === WebSocket.OPEN || this.#socket.readyState === WebSocket.CONNECTING)
      this.#socket.close(1000, 'tabmcp is done');
  }

  #onFrame(data: RawData, isBinary: boolean, log: Logger): void {
    this.#alive = true;
    const heardAt = ++ProxyRpc.#heard;
    const raw = isBinary ? undefined : Array.isArray(data) ? Buffer.concat(data).toString() : data.toString();
    const parsed = raw === undefined ? undefined : parseMessage(JsonRpcMessage, raw, 'proxy message');
    if (!parsed?.ok) {
      log('proxy.rejected', { reason: parsed ? parsed.error.message : 'binary frame' });
      return;
    }
    const message = parsed.value;
    if ('method' in message) {
      if ('id' in message) {
        // The proxy never asks the MCP side anything (docs/requirements.md#remote-proxy); answer so it is not left waiting.
        const error = { code: ErrorCode.MethodNotFound, message: `tabmcp does not serve ${message.method}` };
        this.#socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, error }));
      } else {
        this.onnotification?.(message.method, message.params);
      }
      return;
    }
    const id = message.id === null ? undefined : String(message.id);
    if (id === undefined) {
      log('proxy.error', { error: 'error' in message ? message.error.message : 'reply without id' });
      return;
    }
    const settled =
      'error' in message
        ? this.#pending.reject(id, new ProtocolError(codeOf(message.error), message.error.message))
        : this.#pending.resolve(id, { value: message.result, heardAt });
    if (!settled) log('proxy.late-reply', { id });
  }
}

/** The proxy keeps the spec's code on a refused handshake (-32000) and names the refusal in `data.code`. */
function codeOf(error: { code: number; data?: unknown }): number {
  const { data } = error;
  const inner = typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
  return inner === ErrorCode.TokenRefused ? ErrorCode.TokenRefused : error.code;
}

function upgradeRefusal(status: string, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
    return typeof error === 'string' ? `${error.slice(0, 500)} (${status})` : status;
  } catch {
    return status;
  }
}
