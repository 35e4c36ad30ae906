import { readFileSync } from 'node:fs';
import type { Logger } from '@tabmcp/protocol';
import { httpBearerToken } from '../mcp/http-token';
import { MCP_PATH, serveHttp } from '../mcp/serve-http';
import { serveStdioBothEras } from '../mcp/serve-stdio';
import type { CliOptions } from '../options';
import { loadOrCreateToken } from '../pairing';
import { ProxyBrowserConnection } from './proxy-browser-connection';
import { ProxySession } from './proxy-session';

/** How long connect_browser waits for the proxy link to reach the browser (a first dial, a reconnect). */
const CONNECT_GRACE_MS = 8_000;

/**
 * `TABMCP_TOKEN=<jwt> tabmcp --proxy <url>`: the MCP server of a local agent, with the browser behind a
 * remote proxy (docs/remote.md). Over stdio one session, over --http one per MCP client, each with
 * its own proxy connection.
 */
export async function runProxyClient(options: CliOptions & { proxy: string }, log: Logger): Promise<void> {
  const readFile = options.tokenFile ? tokenFileReader(options.tokenFile) : undefined;
  const token = readFile ?? options.token ?? process.env.TABMCP_PROXY_TOKEN;
  const refusal = !token
    ? '--proxy needs the access token: --token-file <path>, or TABMCP_PROXY_TOKEN (or TABMCP_TOKEN) in the environment.'
    : options.view === 'all'
      ? '--view all is not available with --proxy (the focused view is).'
      : options.launch
        ? '--launch cannot be used with --proxy: the browser runs elsewhere.'
        : undefined;
  if (refusal || !token) {
    process.stderr.write(`tabmcp: ${refusal}\n`);
    process.exit(2);
  }
  const connections = new Set<ProxyBrowserConnection>();
  const newSession = () => {
    const connection = new ProxyBrowserConnection({
      proxyUrl: options.proxy,
      token,
      ...(options.browserName ? { browserName: options.browserName } : {}),
      ...(options.extensionId ? { extensionId: options.extensionId } : {}),
      log,
    });
    connections.add(connection);
    const session = new ProxySession(connection, {
      followBrowserFocus: options.followFocus,
      fallbackTools: options.fallbackTools,
      connectGraceMs: CONNECT_GRACE_MS,
      log,
    });
    connection.start();
    return {
      session,
      release: () => {
        connection.close();
        connections.delete(connection);
      },
    };
  };

  let stopping = false;
  let closeHttp: (() => Promise<void>) | undefined;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log('server.stopping', { reason });
    for (const connection of connections) connection.close();
    await closeHttp?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  log('proxy.mode', { proxy: options.proxy, browserName: options.browserName, extensionId: options.extensionId });

  if (options.httpPort !== undefined) {
    const bearerToken = httpBearerToken(loadOrCreateToken());
    const http = await serveHttp({ port: options.httpPort, bearerToken, newSession, log });
    closeHttp = http.close;
    log('http.listening', { url: `http://127.0.0.1:${http.port}${MCP_PATH}` });
    return;
  }
  process.stdin.on('end', () => void shutdown('stdin closed'));
  serveStdioBothEras(newSession().session, { log, onclose: () => void shutdown('MCP transport closed') });
}

/** Reads the token file now (so a wrong path fails at start) and again at every (re)connect. */
function tokenFileReader(path: string): (() => string) | undefined {
  const read = () => readFileSync(path, 'utf8').trim();
  try {
    return read() ? read : undefined;
  } catch (error) {
    process.stderr.write(
      `tabmcp: cannot read --token-file ${path}: ${error instanceof Error ? error.message : error}\n`,
    );
    process.exit(2);
  }
}
