import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { type Logger, MAX_MESSAGE_BYTES } from '@tabmcp/protocol';
import type { McpView } from '../views/mcp-view';
import { BoundedEventStore } from './event-store';
import { bearerMatches } from './http-token';
import { ModernHttpLeg } from './serve-http-modern';
import { serveMcp } from './serve-mcp';

export interface HttpServeOptions {
  port: number;
  /** Every request must carry `Authorization: Bearer <token>` (http-token.ts; `tabmcp pair` prints it). */
  bearerToken: string;
  /** A fresh session (own focus and tools) for each MCP client; `release` ends it. */
  newSession(): { session: McpView; release(): void };
  /** The one view all 2026-07-28 clients share (serve-http-modern.ts): the `all` view. */
  newSharedView?: () => McpView;
  log?: Logger;
}

export const MCP_PATH = '/mcp';
/** Sessions kept at once for one bearer token; each holds a browser-link endpoint and its own tool state. */
const MAX_SESSIONS_PER_TOKEN = 32;
/**
 * Open GET listen streams per token. Each keeps its session busy (never evicted), so without a cap
 * 32 of them locked every new client out with 503 (issue 26); half the table stays for the rest.
 */
const MAX_LISTEN_STREAMS_PER_TOKEN = MAX_SESSIONS_PER_TOKEN / 2;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

interface HttpSession {
  transport: StreamableHTTPServerTransport;
  release(): void;
  token: string;
  /** Requests being answered now: a busy session is never evicted. */
  inFlight: number;
}

/**
 * MCP over Streamable HTTP on loopback, for clients that prefer it and for several clients on one
 * process: one transport and one BrowserSession per MCP session. Requests without the bearer
 * token, from web pages (any Origin but loopback) and with a foreign Host (DNS rebinding) are
 * refused. SSE streams are resumable (Last-Event-ID) from a bounded in-memory event store.
 */
export async function serveHttp(
  options: HttpServeOptions,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const log = options.log ?? (() => {});
  const sessions = new Map<string, HttpSession>();
  let listenStreams = 0;
  let actualPort = options.port;
  const modern = options.newSharedView ? new ModernHttpLeg(options.newSharedView, { log }) : undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = refuse(request, actualPort);
    if (refusal) {
      response.writeHead(refusal.status, { 'content-type': 'text/plain' }).end(`${refusal.text}\n`);
      return;
    }
    if (!bearerMatches(request.headers.authorization, options.bearerToken)) {
      response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="tabmcp"' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: {
            code: INVALID_REQUEST,
            message:
              'Unauthorized: send Authorization: Bearer <token>; `tabmcp pair` prints the token for --http clients.',
          },
          id: null,
        }),
      );
      return;
    }
    const token = options.bearerToken;
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing && typeof sessionId === 'string') {
      if (request.method === 'GET') {
        if (listenStreams >= MAX_LISTEN_STREAMS_PER_TOKEN) {
          jsonError(
            response,
            429,
            `At most ${MAX_LISTEN_STREAMS_PER_TOKEN} GET listen streams may be open at once: close one (each POST's answer streams on its own).`,
          );
          return;
        }
        listenStreams += 1;
        response.once('close', () => {
          listenStreams -= 1;
        });
      }
      // Most recently used last: when the table is full, the session idle longest goes first.
      sessions.delete(sessionId);
      sessions.set(sessionId, existing);
      existing.inFlight += 1;
      try {
        await existing.transport.handleRequest(request, response, await readBody(request));
      } finally {
        existing.inFlight -= 1;
      }
      return;
    }
    const body = await readBody(request);
    if (modern && sessionId === undefined && request.method === 'POST' && (await isModern(body))) {
      await modern.handle(request, response, body, `http://127.0.0.1:${actualPort}${MCP_PATH}`);
      return;
    }
    if (sessionId !== undefined) {
      jsonError(response, 404, 'Unknown or expired MCP session: initialize again.', idOf(body));
      return;
    }
    if (request.method !== 'POST') {
      jsonError(response, 400, 'No MCP session: send an initialize request first (no mcp-session-id header).');
      return;
    }
    if (!isInitializeRequest(body)) {
      // Neither a 2025 session nor a complete 2026-07-28 envelope: 2026-07-28 (SEP-2575) calls a
      // request without the _meta it needs Invalid params; the message serves a client of either era.
      jsonError(
        response,
        400,
        `No MCP session and no 2026-07-28 request _meta: send initialize first (2025-11-25 and older), or put ${PROTOCOL_VERSION_META} and ${CLIENT_CAPABILITIES_META} in params._meta (2026-07-28).`,
        idOf(body),
        INVALID_PARAMS,
      );
      return;
    }
    // Clients that vanish without DELETE leave their session behind; keep the table bounded per
    // token by evicting the session idle longest, never one that is answering a request.
    const mine = [...sessions.values()].filter((held) => held.token === token);
    if (mine.length >= MAX_SESSIONS_PER_TOKEN) {
      const idlest = mine.find((held) => held.inFlight === 0);
      if (!idlest) {
        jsonError(
          response,
          503,
          `All ${MAX_SESSIONS_PER_TOKEN} sessions are busy: retry when a call ends.`,
          idOf(body),
        );
        return;
      }
      log('http.session-evicted', { sessions: sessions.size });
      await idlest.transport.close();
    }
    const { session, release } = options.newSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, release, token, inFlight: 0 });
        log('http.session', { id, sessions: sessions.size });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      release();
    };
    await serveMcp(session, transport);
    await transport.handleRequest(request, response, body);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log('http.error', { message: error instanceof Error ? error.message : String(error) });
      if (response.headersSent) return;
      if (error instanceof BodyError) jsonError(response, error.status, error.message, null, error.code);
      else jsonError(response, 500, String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  actualPort = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    port: actualPort,
    close: async () => {
      for (const { transport } of sessions.values()) await transport.close().catch(() => {});
      await modern?.close().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function refuse(request: IncomingMessage, port: number): { status: number; text: string } | undefined {
  if (new URL(request.url ?? '/', 'http://localhost').pathname !== MCP_PATH)
    return { status: 404, text: `tabmcp serves MCP at ${MCP_PATH}` };
  const loopbackHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!loopbackHosts.includes(request.headers.host ?? ''))
    return { status: 403, text: `Host ${request.headers.host ?? '(none)'} is not allowed (DNS rebinding protection)` };
  const origin = request.headers.origin;
  if (origin !== undefined && !loopbackHosts.some((host) => origin === `http://${host}`))
    return { status: 403, text: `Origin ${origin} is not allowed: web pages may not drive tabmcp` };
  return undefined;
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = INVALID_REQUEST,
  ) {
    super(message);
  }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  if (request.method !== 'POST') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_MESSAGE_BYTES) throw new BodyError(413, `Request body over ${MAX_MESSAGE_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString());
  } catch {
    throw new BodyError(400, 'Parse error: the request body is not valid JSON', PARSE_ERROR);
  }
}

/** The SDK's own era classification of a POST body: 2026-07-28 (enveloped, server/discover) or not. */
async function isModern(body: unknown): Promise<boolean> {
  const probe = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  return !(await isLegacyRequest(probe, body));
}

/** The id of a request body, when it has a usable one: errors carry it so the client can match them. */
function idOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || !('id' in body)) return null;
  const id = (body as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function jsonError(
  response: ServerResponse,
  status: number,
  message: string,
  id: string | number | null = null,
  code = -32000,
): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}
