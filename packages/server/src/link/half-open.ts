import type { Socket } from 'node:net';
import { LINK_AUTH_TIMEOUT_MS, type Logger } from '@tabmcp/protocol';

/** What the link allows a connection that has not proved the pairing token yet. */
export interface HalfOpenBounds {
  /** From its first byte, a connection must complete its WebSocket upgrade (the HTTP headers) within this. */
  upgradeMs: number;
  /** From its upgrade, it must prove the token (link-auth.ts) within this. */
  handshakeMs: number;
  /** After a refused handshake's close frame, this long for the dialler to close before its socket is cut. */
  closeGraceMs: number;
  /** Connections that have not proved the token yet, at once: more are cut as they arrive. */
  maxHalfOpen: number;
}

/**
 * Node's own deadlines are far too long for a link that only our extension uses: 60 s for the
 * headers (checked every 30 s), none for a socket that upgraded and stays silent, and `ws` waits
 * 30 s for a close frame. 300 half-open upgrades were all still held after 77 s (issue 38). The
 * extension upgrades and proves the token within a few milliseconds; 64 is far above the one
 * extension and the few peer tabmcp processes that dial at once.
 */
export const HALF_OPEN_BOUNDS: HalfOpenBounds = {
  upgradeMs: 5_000,
  handshakeMs: LINK_AUTH_TIMEOUT_MS,
  closeGraceMs: 1_000,
  maxHalfOpen: 64,
};

type Cut = 'upgrade' | 'handshake' | 'cap';

/**
 * Holds every connection to the link from its first byte until it proved the token, each on a
 * deadline, and cuts it when the deadline passes or when too many are waiting. A flood of them
 * gives a few log lines (at 1, 10, 100… of each kind), not one per socket.
 */
export class HalfOpenGuard {
  readonly #bounds: HalfOpenBounds;
  readonly #log: Logger;
  readonly #waiting = new Map<Socket, ReturnType<typeof setTimeout>>();
  readonly #cuts: Record<Cut, number> = { upgrade: 0, handshake: 0, cap: 0 };

  constructor(bounds: HalfOpenBounds, log: Logger) {
    this.#bounds = bounds;
    this.#log = log;
  }

  get halfOpen(): number {
    return this.#waiting.size;
  }

  /** A new TCP connection: held on the upgrade deadline, or cut at once when the cap is reached. */
  connected(socket: Socket): void {
    if (this.#waiting.size >= this.#bounds.maxHalfOpen) {
      socket.destroy();
      this.#cut('cap', `${this.#bounds.maxHalfOpen} connections are already waiting to prove the pairing token`);
      return;
    }
    socket.once('close', () => this.#release(socket));
    this.#arm(
      socket,
      this.#bounds.upgradeMs,
      'upgrade',
      `no complete WebSocket upgrade within ${this.#bounds.upgradeMs} ms`,
    );
  }

  /** Its upgrade passed the Origin check: now it has until the handshake deadline to prove the token. */
  upgraded(socket: Socket): void {
    if (!this.#waiting.has(socket)) return;
    const { handshakeMs, closeGraceMs } = this.#bounds;
    // The handshake's own timer (link-auth.ts) closes politely at handshakeMs; this cuts a dialler that ignores it.
    this.#arm(socket, handshakeMs + closeGraceMs, 'handshake', `no pairing-token proof within ${handshakeMs} ms`);
  }

  /** It proved the token: it is a link now, with its own liveness checks. */
  proven(socket: Socket): void {
    this.#release(socket);
  }

  /** A refused upgrade or handshake closes politely; the socket is cut if the dialler does not close in time. */
  refused(socket: Socket): void {
    if (!this.#waiting.has(socket)) return;
    this.#arm(socket, this.#bounds.closeGraceMs, undefined, '');
  }

  /** Cuts every waiting connection (the link is closing). */
  close(): void {
    for (const socket of [...this.#waiting.keys()]) socket.destroy();
  }

  #arm(socket: Socket, ms: number, kind: Cut | undefined, reason: string): void {
    clearTimeout(this.#waiting.get(socket));
    const timer = setTimeout(() => {
      socket.destroy();
      if (kind) this.#cut(kind, reason);
    }, ms);
    timer.unref();
    this.#waiting.set(socket, timer);
  }

  #release(socket: Socket): void {
    clearTimeout(this.#waiting.get(socket));
    this.#waiting.delete(socket);
  }

  #cut(kind: Cut, reason: string): void {
    const count = ++this.#cuts[kind];
    // 1, 10, 100, …: the first says what happens, the next show that it goes on.
    let shown = 1;
    while (shown < count) shown *= 10;
    if (shown !== count) return;
    this.#log('link.halfOpenCut', { reason, cutSoFar: count, halfOpen: this.#waiting.size });
  }
}
