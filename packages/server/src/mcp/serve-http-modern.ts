import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '@tabmcp/protocol';
import type { McpView } from '../views/mcp-view';
import { createMcpServer } from './serve-mcp';

/**
 * Protocol revision 2026-07-28 over HTTP is stateless: every request is served by a fresh server
 * instance and no session holds a client's focus. So all modern HTTP clients share one view, the
 * `all` view: every tab's tools under hub names (`tab<id>_<tool>`), callable without focusing,
 * beside the core tools. Its tool-list changes go to every open `subscriptions/listen` stream.
 * The view is made on the first modern request, so an HTTP server no modern client talks to
 * holds no extra link endpoint.
 *
 * The view always shows the fallback tools (list_page_tools, call_page_tool): a stateless request
 * says nothing of who sent it, so the server cannot tell a client that holds a listen stream from
 * one that never opened any, and only the latter needs them (docs/decisions.md, 20).
 */
/** Open `subscriptions/listen` streams at once: each holds a socket and a server instance (issue 26: no cap). */
const MAX_LISTEN_STREAMS = 32;

export class ModernHttpLeg {
  #handler: McpHttpHandler | undefined;
  #listening = 0;

  constructor(
    private readonly newView: () => McpView,
    private readonly options: { log: Logger },
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse, body: unknown, url: string): Promise<void> {
    if ((body as { method?: unknown } | null)?.method === 'subscriptions/listen') {
      if (this.#listening >= MAX_LISTEN_STREAMS) {
        const id = (body as { id?: unknown }).id ?? null;
        const message = `At most ${MAX_LISTEN_STREAMS} subscriptions/listen streams may be open at once: close one.`;
        response
          .writeHead(429, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message } }));
        return;
      }
      this.#listening += 1;
      response.once('close', () => {
        this.#listening -= 1;
      });
    }
    const handler = this.#ensure();
    const abort = new AbortController();
    response.on('close', () => abort.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const webRequest = new Request(url, {
      method: request.method ?? 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: abort.signal,
    });
    const answer = await handler.fetch(webRequest, { parsedBody: body });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      out[name] = value;
    });
    response.writeHead(answer.status, out);
    if (!answer.body) {
      response.end();
      return;
    }
    try {
      for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
        if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
      }
    } catch {
      // The client went away mid-stream; the SDK sees the abort and closes its side.
    }
    response.end();
  }

  async close(): Promise<void> {
    await this.#handler?.close();
  }

  #ensure(): McpHttpHandler {
    if (this.#handler) return this.#handler;
    const view = this.newView();
    view.setAutoFallback?.(true);
    const handler = createMcpHandler(() => createMcpServer(view, { announceChanges: false }), {
      legacy: 'reject',
      onerror: (error) => this.options.log('mcp.http-modern-error', { message: error.message }),
    });
    view.ontoolschanged = () => handler.notify.toolsChanged();
    this.#handler = handler;
    return handler;
  }
}
