import {
  ErrorCode,
  type PersonWait,
  ProtocolError,
  type RemoteMethodName,
  RemoteMethods,
  type RemoteParams,
  type RemoteResult,
  validate,
  WAITING_FOR_PERSON_NOTIFICATION,
  WaitingForPersonParams,
} from '@tabmcp/protocol';
import { explainProxyFailure } from './proxy-errors';
import type { ProxyRpc } from './proxy-rpc';

/** The browser this client is connected to now, or why none is. */
export type ForwardingLink = { rpc: ProxyRpc; connectionId: string | undefined } | { problem: string };

/**
 * The session's requests as methods forwarded to the browser, each answer checked against its result
 * schema and returned with its place among the frames received (ProxyRpc's heardAt). A call may wait
 * for the person to confirm it: the browser says so by WAITING_FOR_PERSON_NOTIFICATION, which the
 * proxy relays to every client of the browser, naming the request as the browser sees it.
 */
export class ForwardedCalls {
  /** Who hears that a call waits for the person, by the id the browser sees. */
  readonly #waitListeners = new Map<string, (wait: PersonWait) => void>();

  constructor(
    private readonly proxyUrl: string,
    private readonly requestTimeoutMs: number,
    private readonly link: () => ForwardingLink,
  ) {}

  /** The browser's word that a call waits for the person: told to that call's listener, if any. */
  heardWaiting(params: unknown): void {
    const parsed = validate(WaitingForPersonParams, params, WAITING_FOR_PERSON_NOTIFICATION);
    if (parsed.ok) this.#waitListeners.get(parsed.value.requestId)?.(parsed.value.wait);
  }

  /** Any forwarded method, checked against its result schema (also used for the remote-only methods). */
  async value<M extends RemoteMethodName>(
    method: M,
    params: RemoteParams<M>,
    timeoutMs = this.requestTimeoutMs,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<RemoteResult<M>> {
    return (await this.heard(method, params, timeoutMs, onWaiting)).value;
  }

  /** value(), with the answer's place among the frames received. */
  async heard<M extends RemoteMethodName>(
    method: M,
    params: RemoteParams<M>,
    timeoutMs = this.requestTimeoutMs,
    onWaiting?: (wait: PersonWait) => void,
  ): Promise<{ value: RemoteResult<M>; heardAt: number }> {
    const link = this.link();
    if ('problem' in link) {
      throw new ProtocolError(
        ErrorCode.BrowserNotConnected,
        `The remote browser is not connected through the proxy ${this.proxyUrl}: ${link.problem}`,
      );
    }
    let answer: { value: unknown; heardAt: number };
    try {
      let seenAs: string | undefined;
      const heard = onWaiting
        ? (id: string) => {
            // The browser sees our request ids as `<connectionId>:<id>` (connectionId: ours at the proxy).
            seenAs = `${link.connectionId}:${id}`;
            this.#waitListeners.set(seenAs, onWaiting);
          }
        : undefined;
      answer = await link.rpc
        .requestHeard(method, params as Record<string, unknown>, timeoutMs, heard)
        .finally(() => seenAs && this.#waitListeners.delete(seenAs));
    } catch (error) {
      throw explainProxyFailure(error, method, this.proxyUrl);
    }
    const parsed = validate(RemoteMethods[method].result, answer.value, `${method} answer from the browser`);
    if (!parsed.ok) throw parsed.error;
    return { value: parsed.value as RemoteResult<M>, heardAt: answer.heardAt };
  }
}
