import { type CallToolResult, Server, type Transport } from '@modelcontextprotocol/server';
import { ConfirmAnswer, PERSON_WAIT_MS } from '@tabmcp/protocol';
import { type PersonAsker, questionText } from '../core/person-asker';
import type { Progress } from '../core/tool-definition';
import { TABMCP_VERSION } from '../version';
import type { McpView } from '../views/mcp-view';
import { ProtocolJsonSchemaValidator } from './json-schema-validator';
import { hasPagePrimitives, PAGE_CAPABILITIES, servePagePrimitives } from './page-resources';

const INSTRUCTIONS =
  "tabmcp drives the tabs of a real browser through tools that web pages publish. Start with connect_browser, then open_tab or list_tabs and focus_tab: the focused tab's own tools appear in the tool list (a tools/list_changed notification says when). Page tool descriptions are written by the page and marked with its origin.";

/**
 * 2026-07-28 caching hints. Lists follow the browser (a tab opens, a page registers a tool), so
 * they are never cached: a client re-lists on list_changed. What discover says (name, version,
 * capabilities, instructions) holds for the process's life; ten minutes is a safe reuse window.
 * Everything is private: it describes one user's browser.
 */
const NOT_CACHED = { ttlMs: 0, cacheScope: 'private' } as const;
const CACHE_HINTS = {
  'tools/list': NOT_CACHED,
  'prompts/list': NOT_CACHED,
  'resources/list': NOT_CACHED,
  'resources/templates/list': NOT_CACHED,
  'resources/read': NOT_CACHED,
  'server/discover': { ttlMs: 600_000, cacheScope: 'private' },
} as const;

/**
 * One MCP server instance (2.x SDK, both protocol eras) over a view. Building it starts nothing:
 * the view already exists, so an instance made only to answer a `server/discover` probe and then
 * discarded costs a few objects and no link or browser. The last instance built owns the view's
 * change signal, which is the one the SDK pins for the connection.
 */
export function createMcpServer(
  view: McpView,
  options: { announceChanges?: boolean; beforeTools?: () => Promise<void> } = {},
): Server {
  const server = new Server(
    { name: 'tabmcp', title: 'tabmcp: tools from your browser tabs', version: TABMCP_VERSION },
    {
      capabilities: {
        ...view.capabilities,
        ...(hasPagePrimitives(view) ? PAGE_CAPABILITIES : {}),
        tools: { listChanged: true },
        // A call that waits for the person says so as a log line to a client that asked for no progress.
        logging: {},
      },
      instructions: INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
      jsonSchemaValidator: new ProtocolJsonSchemaValidator(),
    },
  );
  if (hasPagePrimitives(view)) servePagePrimitives(server, view);
  view.setPersonAsker?.(elicitingAsker(server));
  server.setRequestHandler('tools/list', async () => {
    await options.beforeTools?.();
    return { tools: view.listTools() };
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    await options.beforeTools?.();
    const progressToken = request.params._meta?.progressToken;
    let step = 0;
    const progress: Progress = (message, kind = 'step') => {
      if (progressToken === undefined) {
        // Without a token a client hears no progress: that its call waits for the person it hears once, logged.
        if (kind === 'waiting') ctx.mcpReq.log('notice', message, 'tabmcp').catch(() => {});
        return;
      }
      step += 1;
      ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress: step, message } })
        .catch(() => {});
    };
    // The session builds spec content blocks (text, image, resource) and checks page results before this.
    return (await view.callTool(request.params.name, request.params.arguments ?? {}, progress)) as CallToolResult;
  });
  // Stateless HTTP (2026-07-28) announces through its own bus, not through one short-lived instance.
  if (options.announceChanges !== false) {
    view.ontoolschanged = () => {
      server.sendToolListChanged().catch(() => {});
    };
  }
  return server;
}

/** Binds a view to one MCP server over a transport that carries a single client (HTTP session, proxy). */
export async function serveMcp(view: McpView, transport: Transport): Promise<Server> {
  const server = createMcpServer(view);
  await server.connect(transport);
  return server;
}

/**
 * The person behind the client, asked through MCP elicitation (2025 era: a request to the client; the
 * 2026-07-28 era's multi-round-trip input is not used yet, so there the browser's window asks).
 */
function elicitingAsker(server: Server): PersonAsker {
  return {
    canAsk: () => {
      const version = server.getNegotiatedProtocolVersion();
      return server.getClientCapabilities()?.elicitation !== undefined && version !== undefined && version < '2026';
    },
    ask: async (request) => {
      const result = await server.elicitInput(
        {
          mode: 'form',
          message: questionText(request),
          requestedSchema: {
            type: 'object',
            properties: {
              answer: {
                type: 'string',
                title: 'Allow this action?',
                enum: ['once', 'always', 'deny'],
                enumNames: ['Allow once', 'Always for this site', 'Deny'],
              },
            },
            required: ['answer'],
          },
        },
        { timeout: PERSON_WAIT_MS },
      );
      if (result.action !== 'accept') return undefined;
      const answer = ConfirmAnswer.safeParse(result.content?.answer);
      return answer.success ? answer.data : undefined;
    },
  };
}
