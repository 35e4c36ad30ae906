// @tabmcp/proxy: the remote relay of docs/requirements.md#remote-proxy (library; the CLI is src/cli.ts).
export { parseDurationSeconds } from './auth/duration';
export { type SignTokenOptions, signToken } from './auth/sign-token';
export {
  AuthError,
  type AuthOptions,
  createTokenVerifier,
  type Identity,
  type TokenVerifier,
} from './auth/token-verifier';
export type { Bus, Cluster, ExtensionRecord, PresenceStore } from './cluster/cluster';
export { MemoryClusterHub } from './cluster/memory-cluster';
export { RedisCluster, type RedisClusterOptions } from './cluster/redis-cluster';
export { ConfigFile, DEFAULT_PORT, readConfigFile, resolveServeOptions, type ServeFlags } from './config';
export { AUTHENTICATE_REQUEST_ID, isReservedClientId, mapRequestId } from './core/id-mapping';
export { DEFAULT_LIMITS, type Limits, resolveLimits } from './core/limits';
export { CloseCode, type Peer } from './core/peer';
export { ProxyCore, type ProxyCoreOptions, type ProxyStats } from './core/proxy-core';
export type { Session } from './core/session';
export { createJsonLogger, type LeveledLogger, type LogLevel, silentLogger } from './log/logger';
export { type ProxyOptions, type ProxyServer, startProxy } from './server/proxy-server';
export type { Envelope } from './wire/envelopes';
