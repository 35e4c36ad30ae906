import {
  ErrorCode,
  type ExtensionToServer,
  type Logger,
  type ServerRequest,
  type ServerToExtension,
} from '@tabmcp/protocol';

/** One user of the shared extension link: an agent session in this process, or a peer tabmcp. */
export interface MuxClient {
  /** Replies (with the client's own ids restored) and events (the same for every client). */
  deliver(message: ExtensionToServer): void;
  /** The extension is reachable now. */
  up(): void;
  /** The extension went away; the client answers its own waiting calls. */
  down(reason: string): void;
}

export interface MuxHandle {
  readonly id: string;
  /** A request from this client, with ids of its own choosing. */
  send(message: ServerToExtension): void;
  close(): void;
}

/** Ids on the extension side are `<client>.<client's id>` and must fit the link's 128-character limit. */
const MAX_CLIENT_ID_LENGTH = 100;
const SEPARATOR = '.';
/** The mux's own requests (no client asked): their replies are dropped. */
const OWN_ID = 'mux';

/**
 * Shares one extension link among several agents (docs/requirements.md#founding-decisions, decision 4). Each client's request ids
 * get the client's prefix on the way out, as docs/requirements.md#remote-proxy maps ids, and lose it on the way
 * back, so a reply reaches only the client that asked; events go to every client, but the hub's
 * `all` view list (`hubToolsChanged`) only to the clients that watch it, and the extension sends it
 * only while at least one does (issue 24, item 4). Pure logic: the sockets are someone else's.
 */
export class ExtensionMux {
  readonly #clients = new Map<string, MuxClient>();
  /** Clients that asked for the hub's list with `watch`: they, and only they, hear its changes. */
  readonly #catalogReaders = new Set<string>();
  readonly #log: Logger;
  #extension: ((message: ServerToExtension) => void) | undefined;
  #counter = 0;

  constructor(log?: Logger) {
    this.#log = log ?? (() => {});
  }

  get extensionUp(): boolean {
    return this.#extension !== undefined;
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  extensionConnected(send: (message: ServerToExtension) => void): void {
    this.#extension = send;
    for (const client of [...this.#clients.values()]) client.up();
  }

  extensionDisconnected(reason: string): void {
    if (!this.#extension) return;
    this.#extension = undefined;
    for (const client of [...this.#clients.values()]) client.down(reason);
  }

  /** Routes a validated message of the extension; false when it was a reply nobody waits for. */
  fromExtension(message: ExtensionToServer): boolean {
    if (message.type === 'toolResult') {
      return this.#reply(message.callId, (client, callId) => client.deliver({ ...message, callId }));
    }
    // A call's mid-call word goes, like its reply, only to the client that made the call.
    if (message.type === 'connected' || message.type === 'response' || message.type === 'waitingForPerson') {
      return this.#reply(message.requestId, (client, requestId) => client.deliver({ ...message, requestId }));
    }
    if (message.type === 'hubToolsChanged') {
      for (const id of [...this.#catalogReaders]) this.#clients.get(id)?.deliver(message);
      return true;
    }
    for (const client of [...this.#clients.values()]) client.deliver(message);
    return true;
  }

  #reply(mappedId: string, deliver: (client: MuxClient, ownId: string) => void): boolean {
    const cut = mappedId.indexOf(SEPARATOR);
    if (mappedId.slice(0, cut) === OWN_ID) return true;
    const client = cut > 0 ? this.#clients.get(mappedId.slice(0, cut)) : undefined;
    if (!client) {
      this.#log('link.unknown-reply', { id: mappedId });
      return false;
    }
    deliver(client, mappedId.slice(cut + 1));
    return true;
  }

  addClient(client: MuxClient): MuxHandle {
    this.#counter += 1;
    const id = `c${this.#counter}`;
    this.#clients.set(id, client);
    if (this.#extension) client.up();
    return {
      id,
      send: (message) => this.#fromClient(id, client, message),
      close: () => {
        this.#clients.delete(id);
        // The last reader of the hub's list gone: the extension stops sending its changes.
        if (this.#catalogReaders.delete(id) && this.#catalogReaders.size === 0) {
          this.#extension?.({ type: 'unwatchHubTools', requestId: `${OWN_ID}${SEPARATOR}unwatch` });
        }
      },
    };
  }

  #fromClient(id: string, client: MuxClient, message: ServerToExtension): void {
    if (message.type === 'pong' || !this.#clients.has(id)) return;
    if (message.type === 'listHubTools' && message.watch) this.#catalogReaders.add(id);
    this.#route(id, client, message);
  }

  #route(id: string, client: MuxClient, message: ServerRequest): void {
    const ownId = message.type === 'callTool' ? message.callId : message.requestId;
    const refusal =
      ownId.length > MAX_CLIENT_ID_LENGTH
        ? `Request id longer than ${MAX_CLIENT_ID_LENGTH} characters`
        : this.#extension
          ? undefined
          : 'The browser extension is not connected; call connect_browser.';
    if (refusal) {
      client.deliver(failure(message, refusal));
      return;
    }
    const mapped = `${id}${SEPARATOR}${ownId}`;
    this.#extension?.(withId(message, mapped));
  }
}

/** The same request under another id (`callId` for callTool as the spec names it, `requestId` otherwise). */
export function withId(request: ServerRequest, id: string): ServerRequest {
  return request.type === 'callTool' ? { ...request, callId: id } : { ...request, requestId: id };
}

function failure(request: ServerRequest, text: string): ExtensionToServer {
  return request.type === 'callTool'
    ? { type: 'toolResult', callId: request.callId, error: text, code: ErrorCode.BrowserNotConnected }
    : { type: 'response', requestId: request.requestId, error: { code: ErrorCode.BrowserNotConnected, message: text } };
}
