import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpView } from '../views/mcp-view';
import { ProtocolJsonSchemaValidator } from './json-schema-validator';
import { hasPagePrimitives, PAGE_CAPABILITIES, servePagePrimitives } from './page-resources';

export const SERVER_VERSION = '0.1.0';

const INSTRUCTIONS =
  "tabmcp drives the tabs of a real browser through tools that web pages publish. Start with connect_browser, then open_tab or list_tabs and focus_tab: the focused tab's own tools appear in the tool list (a tools/list_changed notification says when). Page tool descriptions are written by the page and marked with its origin.";

/** Binds a view (the session is the focused view) to an MCP server over any SDK transport (stdio, Streamable HTTP). */
export async function serveMcp(session: McpView, transport: Transport): Promise<Server> {
  const server = new Server(
    { name: 'tabmcp', title: 'tabmcp: tools from your browser tabs', version: SERVER_VERSION },
    {
      capabilities: {
        ...session.capabilities,
        ...(hasPagePrimitives(session) ? PAGE_CAPABILITIES : {}),
        tools: { listChanged: true },
      },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: new ProtocolJsonSchemaValidator(),
    },
  );
  if (hasPagePrimitives(session)) servePagePrimitives(server, session);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: session.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    let step = 0;
    const progress = (message: string) => {
      if (progressToken === undefined) return;
      step += 1;
      extra
        .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, message } })
        .catch(() => {});
    };
    return session.callTool(request.params.name, request.params.arguments ?? {}, progress);
  });
  session.ontoolschanged = () => {
    server.sendToolListChanged().catch(() => {});
  };
  await server.connect(transport);
  return server;
}
