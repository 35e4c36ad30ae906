import net from 'node:net';

type Reply = string | number | null | Reply[];

/**
 * One RESP connection, enough for the admin's commands (the test support has no Redis client of its own). It stays
 * open: a node held down must not get the admin's slot while the admin reconnects.
 */
class RespConnection {
  private readonly waiting: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = [];

  private constructor(private readonly socket: net.Socket) {
    onReplies(socket, (value) => {
      const waiter = this.waiting.shift();
      if (value instanceof Error) waiter?.reject(value);
      else waiter?.resolve(value);
    });
  }

  static async open(url: string): Promise<RespConnection> {
    return new RespConnection(await connectTo(url));
  }

  send(...args: string[]): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.write(command(args));
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

function connectTo(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port || 6379), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Calls `handle` with each reply (or pushed message) the socket brings, in order; `after` once per read. */
function onReplies(socket: net.Socket, handle: (value: Reply | Error) => void, after?: () => void): void {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const parsed = parse(buffer, 0);
      if (!parsed) break;
      buffer = buffer.subarray(parsed.end);
      handle(parsed.value);
    }
    after?.();
  });
  socket.on('error', () => undefined);
}

/** A command as RESP writes it. */
function command(args: string[]): string {
  return `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
}

function parse(buffer: Buffer, start: number): { value: Reply | Error; end: number } | undefined {
  const lineEnd = buffer.indexOf('\r\n', start);
  if (lineEnd === -1) return undefined;
  const type = String.fromCharCode(buffer[start] ?? 0);
  const line = buffer.toString('utf8', start + 1, lineEnd);
  const next = lineEnd + 2;
  if (type === '+') return { value: line, end: next };
  if (type === '-') return { value: new Error(line), end: next };
  if (type === ':') return { value: Number(line), end: next };
  if (type === '$') {
    const length = Number(line);
    if (length < 0) return { value: null, end: next };
    if (buffer.length < next + length + 2) return undefined;
    return { value: buffer.toString('utf8', next, next + length), end: next + length + 2 };
  }
  const items: Reply[] = [];
  let at = next;
  for (let i = 0; i < Number(line); i++) {
    const item = parse(buffer, at);
    if (!item) return undefined;
    if (item.value instanceof Error) return item;
    items.push(item.value);
    at = item.end;
  }
  return { value: items, end: at };
}

type LinkRole = 'commands' | 'subscriber';

/**
 * Faults on a real redis-server, aimed at one proxy node's connections, which RedisCluster names
 * `tabmcp-proxy:<role>:<nodeId>` (CLIENT SETNAME).
 */
export class RedisAdmin {
  private constructor(private readonly connection: RespConnection) {}

  static async open(url: string): Promise<RedisAdmin> {
    return new RedisAdmin(await RespConnection.open(url));
  }

  /** Ids of the node's connections (both links, or the one named). */
  async connectionsOf(nodeId: string, role?: LinkRole): Promise<string[]> {
    const list = await this.raw('CLIENT', 'LIST');
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

  /** The node id of a running instance (`<instanceId>/<random>`, proxy-server.ts), read from the node list. */
  async nodeOf(instanceId: string): Promise<string | undefined> {
    const members = await this.connection.send('SMEMBERS', 'tabmcp:proxy:nodes');
    return (Array.isArray(members) ? members.map(String) : []).find((id) => id.startsWith(`${instanceId}/`));
  }

  /** CLIENT KILL of the node's connections; how many. */
  async kill(nodeId: string, role?: LinkRole): Promise<number> {
    let killed = 0;
    for (const id of await this.connectionsOf(nodeId, role)) {
      killed += Number((await this.raw('CLIENT', 'KILL', 'ID', id)).trim());
    }
    return killed;
  }

  /**
   * Cuts the node's connections and keeps them from coming back until the returned function runs: Redis is told
   * to take no more clients than stay connected, so every reconnect is refused meanwhile. Any other new connection
   * is refused too, so open what the test needs first.
   */
  async holdDown(nodeId: string, role?: LinkRole): Promise<() => Promise<void>> {
    const setting = await this.connection.send('CONFIG', 'GET', 'maxclients');
    const before = Array.isArray(setting) ? String(setting[1]) : '10000';
    const ids = await this.connectionsOf(nodeId, role);
    if (ids.length === 0) throw new Error(`no Redis connection of node ${nodeId} to hold down`);
    const connected = (await this.raw('CLIENT', 'LIST')).trim().split('\n').length;
    await this.connection.send('CONFIG', 'SET', 'maxclients', String(connected - ids.length));
    for (const id of ids) await this.connection.send('CLIENT', 'KILL', 'ID', id);
    return async () => {
      await this.connection.send('CONFIG', 'SET', 'maxclients', before);
    };
  }

  /** The raw presence record of a browser, as stored. */
  async record(userId: string, extensionId: string): Promise<Record<string, unknown> | undefined> {
    const value = await this.connection.send('HGET', `tabmcp:proxy:user:${userId}`, extensionId);
    return typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : undefined;
  }

  close(): void {
    this.connection.close();
  }

  private async raw(...args: string[]): Promise<string> {
    return String(await this.connection.send(...args));
  }
}

/** An envelope a node was sent on the bus, with the node it was for. */
export interface BusMessage {
  to: string;
  envelope: { t: string } & Record<string, unknown>;
}

/**
 * Reads what goes over the bus to some nodes (SUBSCRIBE to their channels, `tabmcp:proxy:bus:<nodeId>`), as a node
 * would: Redis hands it each message when it hands the node its copy, so a test can act on the moment one is sent.
 */
export class BusWatcher {
  private readonly seen: BusMessage[] = [];
  private readonly waiters = new Set<() => void>();
  private subscribed = 0;

  private constructor(private readonly socket: net.Socket) {
    const read = (value: Reply | Error) => {
      const [kind, channel, payload] = Array.isArray(value) ? value : [];
      if (kind === 'subscribe') this.subscribed++;
      if (kind !== 'message' || typeof channel !== 'string' || typeof payload !== 'string') return;
      this.seen.push({ to: channel.slice(BUS_PREFIX.length), envelope: JSON.parse(payload) as BusMessage['envelope'] });
    };
    onReplies(socket, read, () => {
      for (const waiter of this.waiters) waiter();
    });
  }

  /** Subscribed to each node's channel once this resolves. */
  static async open(url: string, nodeIds: string[]): Promise<BusWatcher> {
    const socket = await connectTo(url);
    const watcher = new BusWatcher(socket);
    const channels = nodeIds.map((nodeId) => `${BUS_PREFIX}${nodeId}`);
    socket.write(command(['SUBSCRIBE', ...channels]));
    await watcher.until(() => watcher.subscribed >= channels.length, 5_000);
    return watcher;
  }

  /** The first message (seen already or to come) that `matches`, or fails after `timeoutMs`. */
  message(matches: (message: BusMessage) => boolean, timeoutMs = 5_000): Promise<BusMessage> {
    let found: BusMessage | undefined;
    return this.until(() => {
      found = this.seen.find(matches);
      return found !== undefined;
    }, timeoutMs).then(() => found as BusMessage);
  }

  close(): void {
    this.socket.destroy();
  }

  private until(done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no such bus message within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }
}

const BUS_PREFIX = 'tabmcp:proxy:bus:';
