#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { signToken } from './auth/sign-token';
import { resolveServeOptions, type ServeFlags } from './config';
import { startProxy } from './server/proxy-server';

const USAGE = `tabmcp-proxy: relay between remote MCP clients and users' browser extensions (docs/requirements.md#remote-proxy)

Usage:
  tabmcp-proxy serve [--config file.json] [flags]
  tabmcp-proxy token --user <id> [--ttl 1h] [--secret-file f | --secret s] [--claim key=value ...] [--role extension|client]

serve flags (override the config file):
  --host <addr>              listen address (default 127.0.0.1)
  --port <n>                 listen port (default 8787, 0 = any free port)
  --secret-file <path>       HS256 shared secret, read from a file (or env TABMCP_PROXY_SECRET)
  --secret <s>               HS256 shared secret (visible in ps: prefer --secret-file)
  --public-key <pem file>    Ed25519 (EdDSA) or RSA (RS256) public key
  --jwks <json file>         JSON Web Key Set (EdDSA / RS256 / ES256, chosen by kid)
  --algorithms <a,b>         narrow the accepted algorithms
  --issuer <iss>  --audience <aud>  --allow-missing-exp  --require-role  --allow-insecure-host
  --tls-cert <pem> --tls-key <pem>  serve wss:// and https://
  --redis <url>              share presence and routing with other instances (redis://host:port/db)
  --instance-id <id>         name in logs and /health (default hostname-pid)
  --heartbeat-ms <n>         cluster heartbeat (default 2000)
  --max-message-bytes <n>    per-message cap (default 1048576)
  --rate <n> --burst <n>     per-connection token bucket (default 200/s, burst 400)
  --handshake-timeout-ms <n> --call-timeout-ms <n> --ping-interval-ms <n> --max-connections <n>
  --max-connections-per-user <n>  authenticated sockets of one user, both roles (default 256)
  --max-browsers-per-user <n>     of which browsers (default 32)
  --log-level <debug|info|warn|error|silent>
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'token') return token(rest);
  process.stdout.write(USAGE);
  return command === undefined || command === 'help' || command === '--help' || command === '-h' ? 0 : 2;
}

async function serve(args: string[]): Promise<number> {
  const string = { type: 'string' } as const;
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      config: string,
      host: string,
      port: string,
      'instance-id': string,
      redis: string,
      'heartbeat-ms': string,
      'log-level': string,
      secret: string,
      'secret-file': string,
      'public-key': string,
      jwks: string,
      algorithms: string,
      issuer: string,
      audience: string,
      'allow-missing-exp': { type: 'boolean' },
      'require-role': { type: 'boolean' },
      'allow-insecure-host': { type: 'boolean' },
      'tls-cert': string,
      'tls-key': string,
      'max-message-bytes': string,
      rate: string,
      burst: string,
      'handshake-timeout-ms': string,
      'call-timeout-ms': string,
      'ping-interval-ms': string,
      'max-connections': string,
      'max-connections-per-user': string,
      'max-browsers-per-user': string,
    },
  });
  const proxy = await startProxy(resolveServeOptions(values as ServeFlags));
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await proxy.close();
  return 0;
}

async function token(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      user: { type: 'string' },
      ttl: { type: 'string', default: '1h' },
      secret: { type: 'string' },
      'secret-file': { type: 'string' },
      claim: { type: 'string', multiple: true },
      issuer: { type: 'string' },
      audience: { type: 'string' },
      role: { type: 'string' },
    },
  });
  if (values.role !== undefined && values.role !== 'extension' && values.role !== 'client') {
    throw new Error('--role is extension (for a browser) or client (for an agent)');
  }
  if (!values.user) throw new Error('token needs --user <id>');
  const secret =
    values.secret ??
    (values['secret-file'] ? readFileSync(values['secret-file'], 'utf8').trim() : process.env.TABMCP_PROXY_SECRET);
  if (!secret) throw new Error('token needs --secret-file, --secret or TABMCP_PROXY_SECRET');
  const claims: Record<string, string> = {};
  for (const pair of values.claim ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--claim needs key=value, got "${pair}"`);
    claims[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const jwt = await signToken({
    secret,
    userId: values.user,
    ttl: values.ttl,
    claims,
    issuer: values.issuer,
    audience: values.audience,
    role: values.role,
  });
  process.stdout.write(`${jwt}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tabmcp-proxy: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
