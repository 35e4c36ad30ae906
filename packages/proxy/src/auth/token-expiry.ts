import type { Identity } from './token-verifier';

/** setTimeout's longest delay; a later expiry is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Closes an authenticated socket when its token's `exp` passes (issue 26: a connection outlived its
 * token indefinitely). Authenticating again with a fresh token moves the deadline; a token without
 * `exp` (only with requireExp off) sets none.
 */
export class TokenExpiry {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly expired: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  watch(identity: Identity): void {
    this.stop();
    if (identity.expiresAt === undefined) return;
    const deadline = identity.expiresAt * 1_000;
    const arm = () => {
      const left = deadline - this.now();
      if (left <= 0) {
        this.#timer = undefined;
        this.expired();
        return;
      }
      this.#timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      this.#timer.unref?.();
    };
    arm();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
