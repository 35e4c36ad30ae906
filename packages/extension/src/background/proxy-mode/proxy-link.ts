import {
  ErrorCode,
  errorMessage,
  type JsonRpcId,
  JsonRpcMessage,
  type Logger,
  type PersonWait,
  ProtocolError,
  ProxyAuthenticatedParams,
  parseMessage,
  validate,
  WAITING_FOR_PERSON_NOTIFICATION,
} from '@tabmcp/protocol';
import { type ProxyConfig, proxyInstanceKey } from './proxy-config';
import { refreshDelayMs } from './token-expiry';

type ProxyLinkState = 'off' | 'connecting' | 'authenticating' | 'ready' | 'closed';

export interface ProxyLinkStatus {
  state: ProxyLinkState;
  proxyUrl?: string;
  browserName?: string;
  extensionId?: string;
  /** MCP clients connected to this browser (the proxy's `status` notification). */
  peers?: number;
  /** Why the link is not ready, or a warning (token about to expire). */
  detail?: string;
}

/** Answers one forwarded request: a result (never undefined) or a thrown error. */
export type MethodRunner = (method: string, params: unknown, call: RemoteCall) => Promise<unknown>;

/** What a forwarded request may say before its answer: that it waits for the person to confirm it. */
export interface RemoteCall {
  onWaiting(wait: PersonWait): void;
}

const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10_000;
/** The proxy's default frame cap is 1 MiB and it closes the socket on a bigger one: answer with an error instead. */
const MAX_REPLY_BYTES = 1_000_000;
/** Frames from the proxy are capped too (a forwarded request is small; 4 MiB is generous). */
const MAX_INCOMING_BYTES = 4 * 1024 * 1024;

/**
 * Proxy mode's WebSocket to `<proxyUrl>/extension` (docs/requirements.md#remote-proxy). Passive: it sends no
 * request of its own; it answers the proxy's `authenticate` with the browser name and token, then answers
 * every forwarded request with exactly one `result` or `error` under the id it came with (before which a
 * call that waits for the person says so in a `tabmcp/waitingForPerson` notification naming that id).
 * It reconnects with backoff, and before the token expires it looks for a newer one and reconnects
 * with it (the extension cannot mint tokens: the user or a companion process stores a new one).
 */
export class ProxyLink {
  readonly #loadConfig: () => Promise<ProxyConfig | undefined>;
  readonly #run: MethodRunner;
  readonly #log: Logger;
  #socket: WebSocket | undefined;
  #config: ProxyConfig | undefined;
  #status: ProxyLinkStatus = { state: 'off' };
  #backoffMs = MIN_BACKOFF_MS;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #refresh: ReturnType<typeof setTimeout> | undefined;
  #dialing = false;
  /** The last upgrade was refused (a browser is told no reason): dial once without the token to hear why. */
  #upgradeRefused = false;
  onstatus: ((status: ProxyLinkStatus) => void) | undefined;

  constructor(loadConfig: () => Promise<ProxyConfig | undefined>, run: MethodRunner, log: Logger) {
    this.#loadConfig = loadConfig;
    this.#run = run;
    this.#log = log;
  }

  get status(): ProxyLinkStatus {
    return this.#status;
  }

  /** Dials if configured and not connected (also the alarm backstop after a worker restart). */
  ensure(): void {
    if (this.#socket || this.#dialing) return;
    clearTimeout(this.#retry);
    void this.#dial();
  }

  /** The configuration changed: drop the current socket and dial with the new one at once. */
  restart(reason: string): void {
    this.#log('proxy.restart', { reason });
    this.#backoffMs = MIN_BACKOFF_MS;
    const socket = this.#socket;
    this.#socket = undefined;
    clearTimeout(this.#refresh);
    socket?.close(1000, reason.slice(0, 100));
    clearTimeout(this.#retry);
    void this.#dial();
  }

  async #dial(): Promise<void> {
    this.#dialing = true;
    let config: ProxyConfig | undefined;
    try {
      config = await this.#loadConfig();
    } catch (error) {
      this.#log('proxy.config-error', { error: errorMessage(error) });
    } finally {
      this.#dialing = false;
    }
    if (this.#socket) return;
    this.#config = config;
    if (!config) {
      this.#setStatus({ state: 'off' });
      return;
    }
    let socket: WebSocket;
    try {
      // A browser cannot set headers on a WebSocket: the token goes in the query, which the proxy checks
      // before the socket exists, so anonymous sockets held by others cannot lock this browser out (issue 26).
      const query = this.#upgradeRefused ? '' : `?access_token=${encodeURIComponent(config.proxyToken)}`;
      socket = new WebSocket(`${config.proxyUrl}/extension${query}`);
    } catch (error) {
      this.#closed(`Cannot dial ${config.proxyUrl}: ${errorMessage(error)}`);
      return;
    }
    this.#socket = socket;
    this.#setStatus({ state: 'connecting', ...this.#where() });
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.#upgradeRefused = false;
      if (this.#socket === socket) this.#setStatus({ state: 'authenticating', ...this.#where() });
    };
    socket.onmessage = (event) => {
      if (this.#socket === socket && typeof event.data === 'string') this.#onFrame(socket, event.data);
    };
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      clearTimeout(this.#refresh);
      this.#upgradeRefused = !opened;
      const reason = event.reason ? `${event.reason} (code ${event.code})` : `code ${event.code}`;
      this.#closed(`The proxy closed the connection: ${reason}`);
    };
  }

  #closed(detail: string): void {
    this.#log('proxy.closed', { detail, retryInMs: this.#backoffMs });
    this.#setStatus({ state: 'closed', ...this.#where(), detail });
    clearTimeout(this.#retry);
    // Jitter spreads the reconnects of many browsers after a proxy restart.
    const delay = this.#backoffMs * (0.75 + Math.random() * 0.5);
    this.#retry = setTimeout(() => void this.#dial(), delay);
    this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
  }

  #onFrame(socket: WebSocket, raw: string): void {
    const parsed = parseMessage(JsonRpcMessage, raw, 'proxy message', MAX_INCOMING_BYTES);
    if (!parsed.ok) {
      this.#log('proxy.rejected', { reason: parsed.error.message });
      const id = idOf(raw);
      if (id !== undefined) this.#reply(socket, id, { error: parsed.error });
      return;
    }
    const message = parsed.value;
    if (!('method' in message)) return; // the extension sends no requests, so expects no replies
    if (!('id' in message)) {
      this.#onNotification(message.method, message.params);
      return;
    }
    const { id, method, params } = message;
    if (method === 'authenticate') {
      const config = this.#config;
      if (!config) this.#reply(socket, id, { error: new ProtocolError(ErrorCode.ServerError, 'Not configured') });
      else
        void proxyInstanceKey().then((instance) =>
          this.#reply(socket, id, { result: { name: config.browserName, accessToken: config.proxyToken, instance } }),
        );
      return;
    }
    // Mid-call word goes as a notification naming the request: the proxy relays it to the attached clients.
    const onWaiting = (wait: PersonWait) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      const notice = { requestId: String(id), wait };
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: WAITING_FOR_PERSON_NOTIFICATION, params: notice }));
    };
    this.#run(method, params, { onWaiting }).then(
      (result) => this.#reply(socket, id, { result: result ?? {} }),
      (error: unknown) => this.#reply(socket, id, { error }),
    );
  }

  #onNotification(method: string, params: unknown): void {
    if (method === 'authenticated') {
      const parsed = validate(ProxyAuthenticatedParams, params, 'authenticated');
      this.#backoffMs = MIN_BACKOFF_MS;
      this.#setStatus({
        state: 'ready',
        ...this.#where(),
        ...(parsed.ok ? { extensionId: parsed.value.extension_id } : {}),
        peers: 0,
      });
      this.#log('proxy.ready', { extensionId: parsed.ok ? parsed.value.extension_id : undefined });
      this.#scheduleRefresh();
      return;
    }
    if (method === 'status' && typeof params === 'object' && params !== null) {
      const peers = (params as { peer_count?: unknown }).peer_count;
      if (typeof peers === 'number') this.#setStatus({ ...this.#status, peers });
    }
  }

  /** Before the token expires, look for a newer one (storage or config.json) and reconnect with it. */
  #scheduleRefresh(): void {
    clearTimeout(this.#refresh);
    const token = this.#config?.proxyToken;
    if (!token) return;
    const delay = refreshDelayMs(token, Date.now());
    if (delay === undefined) return;
    this.#refresh = setTimeout(() => void this.#refreshToken(token), Math.min(delay, 2 ** 31 - 1));
  }

  async #refreshToken(current: string): Promise<void> {
    const next = await this.#loadConfig().catch(() => undefined);
    if (next && next.proxyToken !== current) {
      this.restart('a newer token is available');
      return;
    }
    this.#log('proxy.token-expiring', {});
    this.#setStatus({
      ...this.#status,
      detail: 'The proxy token expires soon and no newer one is stored: paste a fresh token in the options.',
    });
  }

  #reply(socket: WebSocket, id: JsonRpcId, outcome: { result: unknown } | { error: unknown }): void {
    if (socket.readyState !== WebSocket.OPEN) return; // the proxy has answered the caller already
    let text =
      'result' in outcome
        ? JSON.stringify({ jsonrpc: '2.0', id, result: outcome.result })
        : JSON.stringify({ jsonrpc: '2.0', id, error: errorObject(outcome.error) });
    if (utf8Bytes(text) > MAX_REPLY_BYTES) {
      const error = new ProtocolError(
        ErrorCode.MessageTooLarge,
        `The answer is ${new TextEncoder().encode(text).length} bytes (UTF-8), over the proxy's frame limit of ${MAX_REPLY_BYTES} bytes: ask for less (a page tool or CDP call with a smaller result, a smaller screenshot clip).`,
      );
      text = JSON.stringify({ jsonrpc: '2.0', id, error: errorObject(error) });
    }
    socket.send(text);
  }

  #where(): Pick<ProxyLinkStatus, 'proxyUrl' | 'browserName'> {
    return this.#config ? { proxyUrl: this.#config.proxyUrl, browserName: this.#config.browserName } : {};
  }

  #setStatus(status: ProxyLinkStatus): void {
    this.#status = status;
    this.onstatus?.(status);
  }
}

function errorObject(error: unknown): { code: number; message: string } {
  const code = error instanceof ProtocolError ? error.code : ErrorCode.ServerError;
  return { code, message: errorMessage(error).slice(0, 4096) };
}

function utf8Bytes(text: string): number {
  // A UTF-16 unit is at most 3 UTF-8 bytes: only count when it could matter.
  return text.length * 3 <= MAX_REPLY_BYTES ? text.length : new TextEncoder().encode(text).length;
}

/** The id of a frame that failed validation, so its sender still gets an answer. */
function idOf(raw: string): JsonRpcId | undefined {
  try {
    const value = JSON.parse(raw) as { id?: unknown; method?: unknown };
    if (typeof value.method !== 'string') return undefined;
    return typeof value.id === 'string' || (typeof value.id === 'number' && Number.isInteger(value.id))
      ? value.id
      : undefined;
  } catch {
    return undefined;
  }
}
