import type { Limits } from './limits';

type Role = 'extension' | 'client';

interface Count {
  all: number;
  browsers: number;
}

/**
 * Authenticated sockets per user on this instance (issue 39: one user's token held every slot of
 * `maxConnections`, and another user's browser and agent got 503). A user may hold `maxConnectionsPerUser`
 * sockets of both roles, of which `maxBrowsersPerUser` browsers. Each refusal names the cap it hit.
 */
export class UserSlots {
  private readonly byUser = new Map<string, Count>();
  private readonly holders = new Map<object, { userId: string; role: Role }>();

  constructor(private readonly limits: Pick<Limits, 'maxConnectionsPerUser' | 'maxBrowsersPerUser'>) {}

  /**
   * Why `userId` may not open one more socket of `role`, or undefined. `replacing`: a browser reconnecting while its
   * old socket is still here, which it replaces, so it takes no new slot.
   */
  refusal(userId: string, role: Role, replacing = false): string | undefined {
    if (replacing) return undefined;
    const count = this.byUser.get(userId) ?? { all: 0, browsers: 0 };
    if (count.all >= this.limits.maxConnectionsPerUser) {
      return `Too many connections for this user: the cap maxConnectionsPerUser (${this.limits.maxConnectionsPerUser}) is reached; close one first`;
    }
    if (role === 'extension' && count.browsers >= this.limits.maxBrowsersPerUser) {
      return `Too many browsers for this user: the cap maxBrowsersPerUser (${this.limits.maxBrowsersPerUser}) is reached; close one first`;
    }
    return undefined;
  }

  /** Takes a slot for `holder` (a session), or says why not. */
  take(holder: object, userId: string, role: Role, replacing = false): string | undefined {
    const refused = this.refusal(userId, role, replacing);
    if (refused) return refused;
    const count = this.byUser.get(userId) ?? { all: 0, browsers: 0 };
    count.all++;
    if (role === 'extension') count.browsers++;
    this.byUser.set(userId, count);
    this.holders.set(holder, { userId, role });
    return undefined;
  }

  release(holder: object): void {
    const held = this.holders.get(holder);
    if (!held) return;
    this.holders.delete(holder);
    const count = this.byUser.get(held.userId);
    if (!count) return;
    count.all--;
    if (held.role === 'extension') count.browsers--;
    if (count.all <= 0) this.byUser.delete(held.userId);
  }
}
