import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeIssues } from '@tabmcp/protocol';
import { z } from 'zod';
import type { AuthOptions } from './auth/token-verifier';
import type { Limits } from './core/limits';
import type { ProxyOptions } from './server/proxy-server';

const Positive = z.number().positive();

/** `tabmcp-proxy serve --config file.json`: every field optional, paths relative to the file. */
export const ConfigFile = z.strictObject({
  host: z.string().optional(),
  allowInsecureHost: z.boolean().optional(),
  port: z.number().int().min(0).max(65_535).optional(),
  instanceId: z.string().min(1).max(100).optional(),
  redisUrl: z.string().optional(),
  heartbeatMs: Positive.optional(),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional(),
  auth: z
    .strictObject({
      secret: z.string().optional(),
      secretFile: z.string().optional(),
      publicKeyFile: z.string().optional(),
      jwksFile: z.string().optional(),
      algorithms: z.array(z.string()).optional(),
      issuer: z.string().optional(),
      audience: z.string().optional(),
      requireExp: z.boolean().optional(),
      requireRole: z.boolean().optional(),
      clockToleranceSec: z.number().nonnegative().optional(),
    })
    .optional(),
  tls: z.strictObject({ certFile: z.string(), keyFile: z.string() }).optional(),
  limits: z
    .strictObject({
      maxMessageBytes: Positive.optional(),
      ratePerSecond: Positive.optional(),
      rateBurst: Positive.optional(),
      handshakeTimeoutMs: Positive.optional(),
      callTimeoutMs: Positive.optional(),
      connectTimeoutMs: Positive.optional(),
      maxInFlightPerClient: Positive.optional(),
      pingIntervalMs: Positive.optional(),
      maxConnections: Positive.optional(),
      maxConnectionsPerUser: Positive.optional(),
      maxBrowsersPerUser: Positive.optional(),
      maxUnauthenticated: Positive.optional(),
      maxUnauthenticatedPerSource: Positive.optional(),
      maxUnauthenticatedMessageBytes: Positive.optional(),
      maxBufferedBytes: Positive.optional(),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

/** The `serve` flags, as strings straight from the command line. */
export interface ServeFlags {
  config?: string;
  host?: string;
  port?: string;
  'instance-id'?: string;
  redis?: string;
  'heartbeat-ms'?: string;
  'log-level'?: string;
  secret?: string;
  'secret-file'?: string;
  'public-key'?: string;
  jwks?: string;
  algorithms?: string;
  issuer?: string;
  audience?: string;
  'allow-missing-exp'?: boolean;
  'require-role'?: boolean;
  'allow-insecure-host'?: boolean;
  'tls-cert'?: string;
  'tls-key'?: string;
  'max-message-bytes'?: string;
  rate?: string;
  burst?: string;
  'handshake-timeout-ms'?: string;
  'call-timeout-ms'?: string;
  'ping-interval-ms'?: string;
  'max-connections'?: string;
  'max-connections-per-user'?: string;
  'max-browsers-per-user'?: string;
}

export const DEFAULT_PORT = 8787;

export function readConfigFile(path: string): ConfigFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read config ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = ConfigFile.safeParse(value);
  if (!parsed.success) throw new Error(`Invalid config ${path}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Config file, then flags over it, then `TABMCP_PROXY_SECRET` when no key was given at all. */
export function resolveServeOptions(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ProxyOptions {
  const file = flags.config ? readConfigFile(flags.config) : {};
  const base = flags.config ? dirname(resolve(flags.config)) : process.cwd();
  const fromFile = (path: string | undefined) => (path === undefined ? undefined : resolve(base, path));
  const fileAuth = file.auth ?? {};

  const secretFile = flags['secret-file'] ?? fromFile(fileAuth.secretFile);
  const publicKeyFile = flags['public-key'] ?? fromFile(fileAuth.publicKeyFile);
  const jwksFile = flags.jwks ?? fromFile(fileAuth.jwksFile);
  let secret = flags.secret ?? (secretFile ? readFileSync(secretFile, 'utf8').trim() : fileAuth.secret);
  if (secret === undefined && publicKeyFile === undefined && jwksFile === undefined) secret = env.TABMCP_PROXY_SECRET;

  const auth: AuthOptions = {
    secret,
    publicKeyPem: publicKeyFile ? readFileSync(publicKeyFile, 'utf8') : undefined,
    jwks: jwksFile ? JSON.parse(readFileSync(jwksFile, 'utf8')) : undefined,
    algorithms: flags.algorithms ? flags.algorithms.split(',').map((alg) => alg.trim()) : fileAuth.algorithms,
    issuer: flags.issuer ?? fileAuth.issuer,
    audience: flags.audience ?? fileAuth.audience,
    requireExp: flags['allow-missing-exp'] ? false : (fileAuth.requireExp ?? true),
    clockToleranceSec: fileAuth.clockToleranceSec,
    requireRole: flags['require-role'] ?? fileAuth.requireRole,
  };
  if (auth.secret === undefined && auth.publicKeyPem === undefined && auth.jwks === undefined) {
    throw new Error('No token key: pass --secret-file, --secret, --public-key or --jwks (or set TABMCP_PROXY_SECRET)');
  }

  const certFile = flags['tls-cert'] ?? fromFile(file.tls?.certFile);
  const keyFile = flags['tls-key'] ?? fromFile(file.tls?.keyFile);
  if ((certFile === undefined) !== (keyFile === undefined)) throw new Error('TLS needs both a certificate and a key');

  const limits: Partial<Limits> = {
    ...file.limits,
    ...defined({
      maxMessageBytes: num(flags['max-message-bytes'], 'max-message-bytes'),
      ratePerSecond: num(flags.rate, 'rate'),
      rateBurst: num(flags.burst, 'burst'),
      handshakeTimeoutMs: num(flags['handshake-timeout-ms'], 'handshake-timeout-ms'),
      callTimeoutMs: num(flags['call-timeout-ms'], 'call-timeout-ms'),
      pingIntervalMs: num(flags['ping-interval-ms'], 'ping-interval-ms'),
      maxConnections: num(flags['max-connections'], 'max-connections'),
      maxConnectionsPerUser: num(flags['max-connections-per-user'], 'max-connections-per-user'),
      maxBrowsersPerUser: num(flags['max-browsers-per-user'], 'max-browsers-per-user'),
    }),
  };
  const logLevel = flags['log-level'] ?? file.logLevel;
  if (logLevel !== undefined && !['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new Error(`Unknown log level ${logLevel}`);
  }

  return {
    host: flags.host ?? file.host ?? '127.0.0.1',
    allowInsecureHost: flags['allow-insecure-host'] ?? file.allowInsecureHost,
    port: num(flags.port, 'port') ?? file.port ?? DEFAULT_PORT,
    instanceId: flags['instance-id'] ?? file.instanceId,
    redisUrl: flags.redis ?? file.redisUrl,
    heartbeatMs: num(flags['heartbeat-ms'], 'heartbeat-ms') ?? file.heartbeatMs,
    logLevel: logLevel as ProxyOptions['logLevel'],
    auth,
    tls: certFile && keyFile ? { cert: readFileSync(certFile), key: readFileSync(keyFile) } : undefined,
    limits,
  };
}

function num(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${flag} needs a non-negative number, got "${text}"`);
  return value;
}

function defined<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}
