import { Redis } from 'ioredis';

type LinkRole = 'commands' | 'subscriber';

/**
 * Faults on a real redis-server, aimed at one proxy node's connections, which RedisCluster names
 * `tabmcp-proxy:<role>:<nodeId>` (CLIENT SETNAME).
 */
export class RedisAdmin {
  private constructor(private readonly redis: Redis) {}

  static async open(url: string): Promise<RedisAdmin> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    return new RedisAdmin(redis);
  }

  /** Ids of the node's connections (both links, or the one named). */
  async connectionsOf(nodeId: string, role?: LinkRole): Promise<string[]> {
    const list = String(await this.redis.call('CLIENT', 'LIST'));
    const ids: string[] = [];
    for (const line of list.split('\n')) {
      const fields = Object.fromEntries(line.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
      const name = fields.name ?? '';
      if (!name.startsWith('tabmcp-proxy:') || !name.endsWith(`:${nodeId}`)) continue;
      if (role && !name.startsWith(`tabmcp-proxy:${role}:`)) continue;
      if (fields.id) ids.push(fields.id);
    }
    return ids;
  }

  /** CLIENT KILL of the node's connections; how many. */
  async kill(nodeId: string, role?: LinkRole): Promise<number> {
    let killed = 0;
    for (const id of await this.connectionsOf(nodeId, role)) {
      killed += Number(await this.redis.call('CLIENT', 'KILL', 'ID', id));
    }
    return killed;
  }

  /**
   * Cuts the node's connections and keeps them from coming back until the returned function runs: Redis is told
   * to take no more clients than stay connected, so every reconnect is refused meanwhile. Any other new connection
   * is refused too, so open what the test needs first.
   */
  async holdDown(nodeId: string, role?: LinkRole): Promise<() => Promise<void>> {
    const [, before] = (await this.redis.config('GET', 'maxclients')) as [string, string];
    const ids = await this.connectionsOf(nodeId, role);
    if (ids.length === 0) throw new Error(`no Redis connection of node ${nodeId} to hold down`);
    const connected = String(await this.redis.call('CLIENT', 'LIST'))
      .trim()
      .split('\n').length;
    await this.redis.config('SET', 'maxclients', String(connected - ids.length));
    for (const id of ids) await this.redis.call('CLIENT', 'KILL', 'ID', id);
    return async () => {
      await this.redis.config('SET', 'maxclients', before);
    };
  }

  /** The raw presence record of a browser, as stored. */
  async record(userId: string, extensionId: string): Promise<Record<string, unknown> | undefined> {
    const value = await this.redis.hget(`tabmcp:proxy:user:${userId}`, extensionId);
    return value === null ? undefined : (JSON.parse(value) as Record<string, unknown>);
  }

  close(): void {
    this.redis.disconnect();
  }
}
