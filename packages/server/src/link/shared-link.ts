import { createServer } from 'node:net';
import { errorMessage, type Logger } from '@tabmcp/protocol';
import { LinkEndpoint } from './link-endpoint';
import { REFUSAL_RELEVANT_MS } from './pairing-refusal';
import { PeerLink, type PeerOpenFailure } from './peer-link';
import { WebSocketBrowserLink } from './websocket-browser-link';

export interface SharedLinkOptions {
  port: number;
  token: string;
  allowedOrigins: readonly string[];
  log?: Logger;
}

export type LinkRole = 'owner' | 'peer' | 'none';

const MAX_RETRY_MS = 5_000;

/**
 * Several agents, one browser (docs/requirements.md#founding-decisions, decision 4). The first tabmcp on the port owns the
 * extension link; a later one joins it as a peer. Every session of this process gets an endpoint
 * that survives role changes: when the owner exits, its peers race for the port, the winner owns
 * it, the others join the winner, and the extension dials the port again.
 */
export class SharedBrowserLink {
  #portProblem: string | undefined;
  readonly #options: SharedLinkOptions;
  readonly #log: Logger;
  readonly #endpoints = new Map<LinkEndpoint, () => void>();
  #server: WebSocketBrowserLink | undefined;
  #role: LinkRole = 'none';
  #retry: ReturnType<typeof setTimeout> | undefined;
  #retryMs = 100;
  #closed = false;
  #settling: Promise<void> | undefined;
  onrolechange: ((role: LinkRole) => void) | undefined;

  constructor(options: SharedLinkOptions) {
    this.#options = options;
    this.#log = options.log ?? (() => {});
  }

  get role(): LinkRole {
    return this.#role;
  }

  /** The link server when this process owns the port. */
  get server(): WebSocketBrowserLink | undefined {
    return this.#server;
  }

  /** Takes the port, or joins whoever has it. Throws only when neither is possible at all. */
  async start(): Promise<LinkRole> {
    await this.#settle();
    return this.#role;
  }

  /**
   * Why no browser can be reached through this port now: it is held by a program that is not
   * tabmcp, or by a tabmcp with another pairing token. Undefined while all is well.
   */
  get portProblem(): string | undefined {
    return this.#portProblem;
  }

  createEndpoint(): LinkEndpoint {
    const endpoint = new LinkEndpoint(
      this.#log,
      undefined,
      () => this.#portProblem,
      () => this.#pairingProblem(),
    );
    this.#endpoints.set(endpoint, () => {});
    if (this.#role !== 'none') void this.#bind(endpoint);
    return endpoint;
  }

  /** An extension this process turned away lately (wrong token, not paired, id not accepted), if any. */
  #pairingProblem(): string | undefined {
    const refusal = this.#server?.recentRefusal;
    if (!refusal || performance.now() - refusal.at > REFUSAL_RELEVANT_MS) return undefined;
    return refusal.text;
  }

  releaseEndpoint(endpoint: LinkEndpoint): void {
    this.#endpoints.get(endpoint)?.();
    this.#endpoints.delete(endpoint);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    for (const release of this.#endpoints.values()) release();
    await this.#server?.close();
    this.#server = undefined;
    this.#role = 'none';
  }

  #settle(): Promise<void> {
    this.#settling ??= this.#takeOrJoin().finally(() => {
      this.#settling = undefined;
    });
    return this.#settling;
  }

  async #takeOrJoin(): Promise<void> {
    for (const release of this.#endpoints.values()) release();
    const server = new WebSocketBrowserLink({
      host: '127.0.0.1',
      port: this.#options.port,
      allowedOrigins: this.#options.allowedOrigins,
      token: this.#options.token,
      log: this.#log,
    });
    try {
      await server.start();
      this.#server = server;
      this.#portProblem = undefined;
      this.#setRole('owner');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      this.#server = undefined;
      this.#setRole('peer');
    }
    const outcomes = await Promise.all([...this.#endpoints.keys()].map((endpoint) => this.#bind(endpoint)));
    if (outcomes.some((ok) => !ok)) this.#scheduleRetry();
    else this.#retryMs = 100;
  }

  /** Attaches an endpoint in the current role; false when the owner could not be joined. */
  async #bind(endpoint: LinkEndpoint): Promise<boolean> {
    if (this.#server) {
      this.#endpoints.set(endpoint, this.#server.attachEndpoint(endpoint));
      return true;
    }
    const peer = new PeerLink({ port: this.#options.port, token: this.#options.token, endpoint, log: this.#log });
    this.#endpoints.set(endpoint, () => peer.close());
    try {
      await peer.open();
    } catch (error) {
      const kind = (error as { kind?: PeerOpenFailure }).kind;
      this.#log('peer.join-failed', { port: this.#options.port, kind, message: errorMessage(error) });
      if (kind === 'not-tabmcp' || kind === 'refused') {
        const free = await freeLoopbackPort().catch(() => this.#options.port + 1);
        // A listener that fails the token proof is most likely a tabmcp paired with another token.
        const otherToken = kind === 'refused' || /pairing token/i.test(errorMessage(error));
        this.#portProblem = otherToken
          ? `Port ${this.#options.port} is held by another tabmcp with a different pairing token; restart this one with --port ${free} (and pair the extension with it), or with the same token.`
          : `Port ${this.#options.port} is used by another program (not tabmcp); restart tabmcp with --port ${free}, or stop that program.`;
      }
      return false;
    }
    this.#portProblem = undefined;
    this.#log('peer.joined-owner', { port: this.#options.port });
    peer.onclose = () => {
      this.#log('peer.owner-gone', { port: this.#options.port });
      this.#scheduleRetry(Math.random() * 200);
    };
    return true;
  }

  #scheduleRetry(delayMs = this.#retryMs): void {
    if (this.#closed) return;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => {
      this.#settle().catch((error: unknown) => {
        this.#log('link.retry-failed', { message: errorMessage(error) });
        this.#scheduleRetry();
      });
    }, delayMs);
    this.#retry.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }

  #setRole(role: LinkRole): void {
    if (role === this.#role) return;
    this.#role = role;
    this.#log('link.role', { role, port: this.#options.port });
    this.onrolechange?.(role);
  }
}

/** A port nobody listens on now, to suggest in place of a taken one. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
