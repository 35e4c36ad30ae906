import { decodeJwt, type JWTPayload, SignJWT } from 'jose';
import {
  type ProxyOptions,
  type ProxyServer,
  signToken,
  silentLogger,
  startProxy,
} from '../../packages/proxy/src/index';
import { type Json, TestSocket } from './test-socket';

export const SECRET = 'a-test-secret-that-is-at-least-32-bytes-long';
export const EXT_ID = /^ext-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const CONN_ID = /^conn-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MCP_ID = /^mcp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The spec's `2025-10-20T21:43:53.163+0200`. */
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}$/;

export function tokenFor(userId: string, ttl = '1h', role?: 'extension' | 'client'): Promise<string> {
  return signToken({ secret: SECRET, userId, ttl, role });
}

/**
 * The browser's twin of a test token: the same user and expiry, with the browser role the proxy requires of
 * every extension (issue 26, the impostor). Tests mint one token per user and hand it to both sides; a token that
 * already names a role is returned as it is, so tests of the wrong role still see it refused.
 */
export async function browserToken(token: string): Promise<string> {
  const claims = decodeJwt(token);
  if (claims.role !== undefined) return token;
  return new SignJWT({ ...claims, role: 'extension' })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));
}

/** Any HS256 token, for the malformed cases (no exp, wrong secret, already expired). */
export function rawToken(payload: JWTPayload, secret = SECRET): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
}

export function startTestProxy(overrides: Partial<ProxyOptions> = {}): Promise<ProxyServer> {
  return startProxy({ port: 0, auth: { secret: SECRET }, logger: silentLogger, ...overrides });
}

export interface ExtensionClient {
  socket: TestSocket;
  extensionId: string;
  userId: string;
}

/**
 * Opens /extension and answers the proxy's authenticate request (with the token's browser twin). With `instance`,
 * the browser keeps the same id at every connection, as tabmcp's extension does.
 */
export async function connectExtension(
  proxy: { url: string },
  token: string,
  name = 'Chrome 141',
  instance?: string,
): Promise<ExtensionClient> {
  const socket = await TestSocket.open(`${proxy.url}/extension`);
  const request = await socket.next();
  const accessToken = await browserToken(token);
  socket.send({ jsonrpc: '2.0', id: request.id, result: { name, accessToken, ...(instance ? { instance } : {}) } });
  const authenticated = await socket.next();
  const params = authenticated.params as { user_id: string; extension_id: string };
  return { socket, extensionId: params.extension_id, userId: params.user_id };
}

export interface McpClient {
  socket: TestSocket;
  mcpClientId: string;
  userId: string;
}

let nextId = 1_000;

/** Opens /mcp and performs mcp_handshake. */
export async function connectMcp(proxy: { url: string }, token: string): Promise<McpClient> {
  const socket = await TestSocket.open(`${proxy.url}/mcp`);
  const reply = await socket.request(nextId++, 'mcp_handshake', { accessToken: token });
  const result = reply.result as { mcp_client_id: string; user_id: string };
  if (!result) throw new Error(`handshake failed: ${JSON.stringify(reply)}`);
  return { socket, mcpClientId: result.mcp_client_id, userId: result.user_id };
}

/** `connect` and the `status` that follows it; returns the connection id. */
export async function attach(client: McpClient, extensionId: string): Promise<string> {
  const reply = await client.socket.request(nextId++, 'connect', { extension_id: extensionId });
  const result = reply.result as { connection_id: string } | undefined;
  if (!result) throw new Error(`connect failed: ${JSON.stringify(reply)}`);
  await client.socket.nextMatching((frame) => frame.method === 'status');
  return result.connection_id;
}

/** Makes a fake extension answer every forwarded request with `{echo: method, params}` (or `answer`). */
export function autoAnswer(extension: ExtensionClient, answer?: (frame: Json) => unknown): void {
  extension.socket.ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Json;
    if (frame.id === undefined || frame.method === undefined) return;
    const result = answer ? answer(frame) : { echo: frame.method, params: frame.params ?? null };
    extension.socket.send({ jsonrpc: '2.0', id: frame.id, result });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(50);
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}
