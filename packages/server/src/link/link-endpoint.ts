import {
  type BrowserInfo,
  type CallToolResult,
  CLIENT_CONFIRM_META,
  ClientQuestion,
  CloseTabResult,
  type ConfirmMode,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ErrorCode,
  type ExtensionToServer,
  FocusTabResult,
  type InputMode,
  ListenerSet,
  type Logger,
  OpenTabResult,
  PAGE_LOAD_BUDGET_MS,
  type PageMethod,
  PERSON_WAIT_MS,
  PendingRequests,
  type PersonWait,
  ProtocolError,
  type ServerRequest,
  type ServerToExtension,
  type TabInfo,
  validate,
} from '@tabmcp/protocol';
import type { z } from 'zod';
import type { BrowserConnection, LinkEvents } from '../core/browser-connection';
import type { PersonAsker } from '../core/person-asker';
import { untilUp } from '../core/until-up';
import { withId } from './extension-mux';

/** `heardAt`: the reply's place among the messages this endpoint received (see #toolsHeard). */
type Reply =
  | { kind: 'connected'; browser: BrowserInfo; tabs: TabInfo[] }
  | { kind: 'value'; value: unknown; heardAt: number };

/**
 * One agent's end of the browser link: turns the session's calls into link messages with request
 * ids and answers them from the replies. It owns no socket: whoever carries the messages (the
 * extension's socket, a multiplexer, a peer connection to another tabmcp) attaches it with a send
 * function and detaches it when the way to the extension is gone, which answers every waiting call.
 */
export class LinkEndpoint implements BrowserConnection {
  readonly #pending = new PendingRequests<Reply>();
  /** Who hears that a waiting call waits for the person (`waitingForPerson`), by request id. */
  readonly #waitListeners = new Map<string, (wait: PersonWait) => void>();
  readonly #log: Logger;
  #send: ((message: ServerToExtension) => void) | undefined;
  readonly #listeners = new ListenerSet<LinkEvents>();
  /** Messages received so far: a reply's place among the events around it. */
  #heard = 0;
  /**
   * Each tab's tools as the last event said them, and that event's place. A reply's tab list is the
   * extension's when it answered; an event read after it, in the same chunk of the socket, reaches the
   * session before the call's continuation does (ws emits a chunk's messages in one go): that list is the
   * newer one, and the reply must not undo it (openTab).
   */
  readonly #toolsHeard = new Map<number, { tools: TabInfo['tools']; heardAt: number }>();

  readonly #requestTimeoutMs: number;
  /** The agent's `--input`, told to the extension with each connect. */
  inputMode: InputMode | undefined;
  /** The agent's `--confirm` (automation: allow), told to the extension with each connect. */
  confirmMode: ConfirmMode | undefined;
  /** The agent's client, when it can ask the person (MCP elicitation). */
  personAsker: PersonAsker | undefined;

  constructor(
    log?: Logger,
    requestTimeoutMs?: number,
    portProblem?: () => string | undefined,
    pairingProblem?: () => string | undefined,
  ) {
    this.#log = log ?? (() => {});
    this.#requestTimeoutMs = requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#portProblem = portProblem ?? (() => undefined);
    this.#pairingProblem = pairingProblem ?? (() => undefined);
  }

  readonly #portProblem: () => string | undefined;
  readonly #pairingProblem: () => string | undefined;

  pairingProblem(): string | undefined {
    return this.#pairingProblem();
  }

  linkProblem(): string | undefined {
    return this.#portProblem();
  }

  get isUp(): boolean {
    return this.#send !== undefined;
  }

  /** Requests waiting for the extension, for tests and diagnostics. */
  get inFlight(): number {
    return this.#pending.size;
  }

  attach(send: (message: ServerToExtension) => void): void {
    const wasUp = this.isUp;
    this.#send = send;
    if (wasUp) return;
    this.#listeners.emit('up');
  }

  on<K extends keyof LinkEvents>(type: K, listener: LinkEvents[K]): () => void {
    return this.#listeners.on(type, listener);
  }

  detach(reason: string): void {
    if (!this.#send) return;
    this.#send = undefined;
    this.#toolsHeard.clear();
    this.#pending.rejectAll(() => new ProtocolError(ErrorCode.BrowserNotConnected, reason));
    this.#listeners.emit('down', reason);
  }

  /** A message from the extension meant for this endpoint (replies already carry this endpoint's ids). */
  receive(message: ExtensionToServer): void {
    const heardAt = ++this.#heard;
    switch (message.type) {
      case 'ping':
      case 'hello':
      case 'disconnected':
        return;
      case 'connected':
        this.#settle(message.requestId, { kind: 'connected', browser: message.browser, tabs: message.tabs });
        return;
      case 'toolResult':
        if (message.error !== undefined || !message.result) {
          const code = message.code ?? ErrorCode.InternalError;
          this.#fail(message.callId, new ProtocolError(code, message.error ?? 'no result'));
        } else {
          this.#settle(message.callId, { kind: 'value', value: message.result, heardAt });
        }
        return;
      case 'waitingForPerson':
        this.#waitListeners.get(message.requestId)?.(message.wait);
        return;
      case 'response':
        if (message.error) this.#fail(message.requestId, new ProtocolError(message.error.code, message.error.message));
        else this.#settle(message.requestId, { kind: 'value', value: message.result, heardAt });
        return;
      default:
        if (message.type === 'tabClosed') this.#toolsHeard.delete(message.tabId);
        else if (message.type === 'toolsChanged' || message.type === 'tabFocused')
          this.#toolsHeard.set(message.tabId, { tools: message.tools, heardAt });
        this.#listeners.emit('event', message);
    }
  }

  waitUntilUp(timeoutMs: number): Promise<boolean> {
    return untilUp(this, timeoutMs);
  }

  async connect() {
    const input = this.inputMode === undefined ? {} : { input: this.inputMode };
    const confirm = this.confirmMode === undefined ? {} : { confirm: this.confirmMode };
    const reply = await this.#request({ type: 'connect', requestId: '', ...input, ...confirm }, 'connect');
    if (reply.kind !== 'connected')
      throw new ProtocolError(ErrorCode.InternalError, 'The extension answered connect with something else');
    return { browser: reply.browser, tabs: reply.tabs };
  }

  async openTab(url: string, focus: boolean, waitForToolsMs: number): Promise<OpenTabResult> {
    const timeout = PAGE_LOAD_BUDGET_MS + waitForToolsMs + 5_000;
    const reply = await this.#request(
      { type: 'openTab', requestId: '', url, focus, waitForToolsMs },
      `openTab ${url}`,
      timeout,
    );
    const opened = checked(OpenTabResult, reply.kind === 'value' ? reply.value : undefined, 'openTab');
    // The page's tools changed after the extension answered, and the session heard it first: the newer list stands.
    const later = this.#toolsHeard.get(opened.tab.id);
    if (reply.kind !== 'value' || !later || later.heardAt < reply.heardAt) return opened;
    return { ...opened, tab: { ...opened.tab, tools: later.tools } };
  }

  async focusTab(tabId: number) {
    const raw = await this.#value({ type: 'focusTab', requestId: '', tabId }, `focusTab ${tabId}`);
    return checked(FocusTabResult, raw, 'focusTab');
  }

  async closeTab(tabId: number) {
    const raw = await this.#value({ type: 'closeTab', requestId: '', tabId }, `closeTab ${tabId}`);
    return checked(CloseTabResult, raw, 'closeTab');
  }

  async callTool(
    tabId: number,
    toolName: string,
    args: Record<string, unknown>,
    timeoutMs: number,
    onWaiting?: (wait: PersonWait) => void,
  ) {
    const asker = this.personAsker?.canAsk() ? this.personAsker : undefined;
    const first = await this.#callTool(
      { tabId, toolName, args, timeoutMs, ...(asker ? { askClient: true } : {}) },
      onWaiting,
    );
    // A headless browser handed its question to the agent's client: the person answers there, then the
    // same call goes again with their answer (docs/user-guide.md, "Asking before it matters").
    const question = ClientQuestion.safeParse(
      (first?._meta as Record<string, unknown> | undefined)?.[CLIENT_CONFIRM_META],
    );
    if (!asker || !question.success) return first;
    const answer = (await asker.ask(question.data.request).catch(() => undefined)) ?? 'deny';
    return this.#callTool({ tabId, toolName, args, timeoutMs, confirmed: { token: question.data.token, answer } });
  }

  async #callTool(
    call: Omit<Extract<ServerRequest, { type: 'callTool' }>, 'type' | 'callId'>,
    onWaiting?: (wait: PersonWait) => void,
  ) {
    // The extension enforces the page's timeout; ours only catches a link that stopped answering.
    const reply = await this.#request(
      { type: 'callTool', callId: '', ...call },
      `callTool ${call.toolName} in tab ${call.tabId}`,
      // The extension may first wait for the person to confirm a consequential call.
      (call.timeoutMs ?? 0) + 2_000 + PERSON_WAIT_MS,
      onWaiting,
    );
    return (reply.kind === 'value' ? reply.value : undefined) as CallToolResult;
  }

  async pageRequest(tabId: number, method: PageMethod, params?: Record<string, unknown>): Promise<unknown> {
    return this.#value(
      { type: 'pageRequest', requestId: '', tabId, method, ...(params ? { params } : {}) },
      `${method} in tab ${tabId}`,
    );
  }

  async #value(message: ServerRequest, what: string, timeoutMs?: number): Promise<unknown> {
    const reply = await this.#request(message, what, timeoutMs);
    return reply.kind === 'value' ? reply.value : undefined;
  }

  /** Any request of the link (views may add their own); answered by `response {requestId}`. */
  async requestValue(
    message: ServerRequest,
    what: string,
    timeoutMs?: number,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<unknown> {
    const reply = await this.#request(message, what, timeoutMs, onWaiting);
    return reply.kind === 'value' ? reply.value : undefined;
  }

  #request(
    message: ServerRequest,
    what: string,
    timeoutMs = this.#requestTimeoutMs,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<Reply> {
    const send = this.#send;
    if (!send) {
      return Promise.reject(
        new ProtocolError(
          ErrorCode.BrowserNotConnected,
          'The browser extension is not connected; call connect_browser.',
        ),
      );
    }
    const id = this.#pending.nextId('s');
    const answer = this.#pending.wait(id, 'link', timeoutMs, () => `The browser extension (${what})`);
    if (!onWaiting) {
      send(withId(message, id));
      return answer;
    }
    this.#waitListeners.set(id, onWaiting);
    send(withId(message, id));
    return answer.finally(() => this.#waitListeners.delete(id));
  }

  #settle(id: string, reply: Reply): void {
    if (!this.#pending.resolve(id, reply)) this.#log('link.unknown-reply', { id });
  }

  #fail(id: string, error: Error): void {
    if (!this.#pending.reject(id, error)) this.#log('link.unknown-reply', { id });
  }
}

/** A reply of the extension, checked against its schema (browser-link.ts) rather than cast. */
function checked<S extends z.core.$ZodType>(schema: S, raw: unknown, what: string): z.infer<S> {
  const result = validate(schema, raw, `${what} reply from the extension`);
  if (!result.ok) throw result.error;
  return result.value;
}
