import { after, before } from 'node:test';
import type { ProxyOptions, ProxyServer } from '../../packages/proxy/src/index';
import {
  attach,
  connectExtension,
  connectMcp,
  type ExtensionClient,
  eventually,
  type McpClient,
  startTestProxy,
  tokenFor,
} from './fixtures';
import { type ProxyProcess, type RedisProcess, spawnProxy, startRedis } from './processes';
import type { TestSocket } from './test-socket';

export interface ClusterOptions {
  heartbeatMs: number;
  /** Instances in this process, by instance id: their state (stats, nodeId) can be read. */
  inProcess: string[];
  /** Instances in processes of their own, by instance id: they can die for real. */
  spawned?: string[];
  limits?: ProxyOptions['limits'];
}

export interface TestCluster {
  readonly redis: RedisProcess;
  instance(id: string): ProxyServer;
  process(id: string): ProxyProcess;
  /** Keeps a socket (or a client holding one) to be closed after the block's tests. */
  track<T extends TestSocket | { socket: TestSocket }>(value: T): T;
}

/**
 * Proxy instances sharing one private redis-server, for the `describe` block this is called in: started
 * before its tests, and after them every socket a test tracked is closed, then the instances, then Redis.
 */
export function useCluster(options: ClusterOptions): TestCluster {
  let redis: RedisProcess | undefined;
  const servers = new Map<string, ProxyServer>();
  const processes = new Map<string, ProxyProcess>();
  const sockets: TestSocket[] = [];

  before(async () => {
    redis = await startRedis();
    const url = redis.url;
    const heartbeat = String(options.heartbeatMs);
    await Promise.all([
      ...options.inProcess.map(async (instanceId) => {
        const server = await startTestProxy({
          redisUrl: url,
          instanceId,
          heartbeatMs: options.heartbeatMs,
          ...(options.limits ? { limits: options.limits } : {}),
        });
        servers.set(instanceId, server);
      }),
      ...(options.spawned ?? []).map(async (instanceId) => {
        processes.set(
          instanceId,
          await spawnProxy(['--redis', url, '--instance-id', instanceId, '--heartbeat-ms', heartbeat]),
        );
      }),
    ]);
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await Promise.all([...servers.values()].map((server) => server.close()));
    await Promise.all([...processes.values()].map((child) => child.kill()));
    await redis?.stop();
  });

  return {
    get redis() {
      if (!redis) throw new Error('the cluster starts before the tests of its block');
      return redis;
    },
    instance(id) {
      const server = servers.get(id);
      if (!server) throw new Error(`no in-process instance "${id}" in this cluster`);
      return server;
    },
    process(id) {
      const child = processes.get(id);
      if (!child) throw new Error(`no spawned instance "${id}" in this cluster`);
      return child;
    },
    track(value) {
      sockets.push('socket' in value ? value.socket : value);
      return value;
    },
  };
}

/** What an instance's /health says of its link to Redis. */
export async function clusterLink(proxy: { url: string }): Promise<string> {
  const health = (await (await fetch(`${proxy.url.replace('ws', 'http')}/health`)).json()) as {
    cluster_link: string;
  };
  return health.cluster_link;
}

export interface BrowserAndClient {
  token: string;
  extension: ExtensionClient;
  client: McpClient;
}

/**
 * A browser on one instance and a client on another, connected to it once the client's instance lists it
 * (presence travels through Redis). The sockets are tracked by the cluster.
 */
export async function browserAndClient(
  cluster: TestCluster,
  on: { browser: { url: string }; client: { url: string } },
  user: string,
  browserName = `Chrome of ${user}`,
): Promise<BrowserAndClient> {
  const pair = await browserListed(cluster, on, user, browserName);
  // Right after Redis came back, the client's instance may still be reconnecting its publisher and
  // refuses a connect as "unreachable", as it should: asked again, it connects.
  await eventually(() => attach(pair.client, pair.extension.extensionId));
  return pair;
}

/** The same, short of the `connect`: the client's instance lists the browser. */
export async function browserListed(
  cluster: TestCluster,
  on: { browser: { url: string }; client: { url: string } },
  user: string,
  browserName = `Chrome of ${user}`,
): Promise<BrowserAndClient> {
  const token = await tokenFor(user);
  const extension = cluster.track(await connectExtension(on.browser, token, browserName));
  const client = cluster.track(await connectMcp(on.client, token));
  await eventually(async () => {
    const reply = await client.socket.request(`list-${user}`, 'list_extensions', {});
    const listed = (reply.result as { extensions: Array<{ id: string }> }).extensions;
    return listed.some((entry) => entry.id === extension.extensionId) ? true : undefined;
  });
  return { token, extension, client };
}
