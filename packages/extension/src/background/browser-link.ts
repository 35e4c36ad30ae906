import {
  AuthChallenge,
  dialledPort,
  type ExtensionToServer,
  KEEPALIVE_INTERVAL_MS,
  type LinkProblem,
  type Logger,
  linkProof,
  newNonce,
  parseMessage,
  type ServerRequest,
  ServerToExtension,
  sameProof,
} from '@tabmcp/protocol';
import { fitFrame } from './frame-fit';

export interface LinkConfig {
  url: string;
  /** The pairing token: proves both ends to each other (protocol/link-auth.ts), never sent. */
  token: string | undefined;
}

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
const MAX_QUEUE = 1_000;

/**
 * The extension's side of the local browser link: dials the tabmcp server, keeps the MV3 worker
 * alive with a ping every 20 s, reconnects with backoff, and queues what is sent while closed
 * (messages sent before the socket opens would be lost otherwise). Only events are queued: a reply
 * belongs to the socket whose server asked.
 */
export class BrowserLink {
  #socket: WebSocket | undefined;
  #queue: string[] = [];
  #backoffMs = MIN_BACKOFF_MS;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #keepalive: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  onrequest: ((request: ServerRequest) => void) | undefined;
  onopen: (() => void) | undefined;
  onstatechange: ((state: 'open' | 'closed') => void) | undefined;
  /** Why the last dial failed, for the popup and the options page; undefined while open or unknown. */
  problem: LinkProblem | undefined;

  constructor(
    private readonly config: () => Promise<LinkConfig>,
    private readonly log: Logger,
  ) {}

  #authenticated = false;

  /** Open and authenticated both ways: only then does anything but the exchange cross the link. */
  get isOpen(): boolean {
    return this.#authenticated && this.#socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.#stopped = false;
    if (!this.#socket) void this.#dial();
  }

  /** Reconnects at once if the link is down (used by the alarm backstop). */
  ensure(): void {
    if (!this.#socket && !this.#stopped) {
      clearTimeout(this.#retry);
      void this.#dial();
    }
  }

  /** Closes the link in order until start() (the browser or the worker is going): no retries, nothing queued. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#queue = [];
    this.#hangUp('the extension stopped the link');
  }

  /** Ends the connection in order and dials again, with the settings the user just changed. */
  restart(reason: string): void {
    clearTimeout(this.#retry);
    this.#hangUp(reason);
    this.#backoffMs = MIN_BACKOFF_MS;
    if (!this.#stopped) void this.#dial();
  }

  /**
   * An orderly end says so first (docs/requirements.md#local-server, `disconnected`): the server then knows the
   * browser let go on purpose, not that the link broke.
   */
  #hangUp(reason: string): void {
    const socket = this.#socket;
    if (!socket) return;
    const wasOpen = this.isOpen;
    this.#socket = undefined;
    this.#authenticated = false;
    clearInterval(this.#keepalive);
    if (wasOpen) socket.send(JSON.stringify({ type: 'disconnected' } satisfies ExtensionToServer));
    socket.close(1000, reason);
    this.log('link.closed', { code: 1000, reason });
    this.onstatechange?.('closed');
  }

  send(message: ExtensionToServer): void {
    const fitted = fitFrame(message);
    if (fitted?.note) this.log('link.oversized', { note: fitted.note });
    if (!fitted) return;
    const { text } = fitted;
    if (this.isOpen) this.#socket?.send(text);
    else if (isReply(message)) {
      // The server that asked is gone with its socket and has already failed the call; the next
      // server never asked, and its ids could collide with the old ones.
      this.log('link.reply-dropped', { type: message.type });
    } else if (message.type !== 'ping' && message.type !== 'hubToolsChanged') {
      // Not kept either: a hub change, numbered for the link that watched it (the next link asks afresh).
      this.#queue.push(text);
      if (this.#queue.length > MAX_QUEUE) this.#queue.shift();
    }
  }

  async #dial(): Promise<void> {
    let url: string;
    let token: string | undefined;
    try {
      ({ url, token } = await this.config());
    } catch (error) {
      this.log('link.config-error', { error: String(error) });
      this.#scheduleRetry();
      return;
    }
    // Stopped, or another dial (a restart) got there first while the settings were read.
    if (this.#stopped || this.#socket) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      this.log('link.dial-error', { error: String(error) });
      this.#scheduleRetry();
      return;
    }
    this.#socket = socket;
    this.#authenticated = false;
    const clientNonce = newNonce();
    let socketOpened = false;
    socket.onopen = () => {
      socketOpened = true;
      if (!token) {
        this.problem = 'unpaired';
        this.log('link.unpaired', { reason: 'no pairing token: pair the extension (options page)' });
        socket.close(4001, 'not paired');
        return;
      }
      socket.send(JSON.stringify({ type: 'authHello', nonce: clientNonce }));
    };
    const opened = () => {
      this.#authenticated = true;
      this.problem = undefined;
      this.#backoffMs = MIN_BACKOFF_MS;
      this.#keepalive = setInterval(() => this.send({ type: 'ping' }), KEEPALIVE_INTERVAL_MS);
      this.onopen?.();
      for (const text of this.#queue.splice(0)) socket.send(text);
      this.onstatechange?.('open');
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      if (!this.#authenticated) {
        void this.#answerChallenge(socket, event.data, token ?? '', dialledPort(url), clientNonce).then((ok) => {
          if (ok && this.#socket === socket) opened();
        });
        return;
      }
      const parsed = parseMessage(ServerToExtension, event.data, 'server message');
      if (!parsed.ok) {
        this.log('link.rejected', { reason: parsed.error.message });
        return;
      }
      if (parsed.value.type !== 'pong') this.onrequest?.(parsed.value);
    };
    socket.onclose = (event) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#authenticated = false;
      clearInterval(this.#keepalive);
      this.log('link.closed', { code: event.code, reason: event.reason });
      this.onstatechange?.('closed');
      this.#scheduleRetry();
      // The WebSocket API hides why a handshake failed: ask the port over plain HTTP.
      if (!socketOpened) void probePort(url).then((problem) => (this.problem = problem));
    };
  }

  /**
   * Checks that the listener holds the pairing token before anything is sent or run: a process
   * squatting the port gets a nonce and a closed socket, never the token, the tabs or a request.
   */
  async #answerChallenge(
    socket: WebSocket,
    text: string,
    token: string,
    port: number,
    clientNonce: string,
  ): Promise<boolean> {
    const challenge = parseMessage(AuthChallenge, text, 'authentication challenge', 1_024);
    // Both proofs at once (it shortens the cold start); ours is sent only once the listener's checks out.
    const [expected, proof] = challenge.ok
      ? await Promise.all([
          linkProof(token, 'server', port, clientNonce, challenge.value.nonce),
          linkProof(token, 'client', port, clientNonce, challenge.value.nonce),
        ])
      : ['', ''];
    if (!challenge.ok || !sameProof(challenge.value.proof, expected)) {
      this.problem = challenge.ok ? 'wrong-token' : 'not-tabmcp';
      this.log('link.unauthenticated', { reason: 'the process on the port did not prove it holds the pairing token' });
      socket.close(4001, 'authentication failed');
      return false;
    }
    if (socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify({ type: 'authProof', proof }));
    return true;
  }

  #scheduleRetry(): void {
    if (this.#stopped) return;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#dial(), this.#backoffMs);
    this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
  }
}

/** How long the port probe waits: a program that accepts and never answers must not hold it. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Nobody listening, a tabmcp that refused this extension (its id), or another program. The
 * link server's plain-HTTP answer names tabmcp and lets any origin read it.
 */
async function probePort(linkUrl: string): Promise<LinkProblem> {
  const httpUrl = linkUrl.replace(/^ws/, 'http');
  try {
    const response = await fetch(httpUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const text = await response.text();
    return text.startsWith('tabmcp browser link') ? 'refused' : 'not-tabmcp';
  } catch (error) {
    // A CORS refusal or a timeout means something answered; only a refused connection is "nobody".
    return (error as Error).name === 'TimeoutError' ? 'not-tabmcp' : 'no-server';
  }
}

function isReply(message: ExtensionToServer): boolean {
  return message.type === 'toolResult' || message.type === 'response' || message.type === 'connected';
}
