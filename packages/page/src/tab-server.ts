import { DEFAULT_TAB_CHANNEL, ErrorCode, isTabEnvelope, tabEnvelope } from '@tabmcp/protocol/light';
import { isRpcNotification, isRpcRequest, type RpcId, type RpcRequest } from './jsonrpc-guard';
import { MCP_NOTIFICATION_EVENT, type McpNotificationDetail, type WindowMcpApi } from './types';

export interface TabServerOptions {
  channel?: string;
  /** The window to serve on; defaults to the current one. */
  window?: Window;
}

export interface TabServer {
  close(): void;
}

const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const NOTIFICATION_METHODS: Record<McpNotificationDetail['type'], string> = {
  toolsListChanged: 'notifications/tools/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourceUpdated: 'notifications/resources/updated',
};

/**
 * Serves any `WindowMcpApi` as an MCP server over postMessage, wire-compatible with MCP-B's
 * `TabServerTransport`: the extension's content script, or any `TabClientTransport`, can connect.
 * Only messages from this same window are accepted, and replies never leave it.
 */
export function serveTab(api: WindowMcpApi, options: TabServerOptions = {}): TabServer {
  const win = options.window ?? window;
  const channel = options.channel ?? DEFAULT_TAB_CHANNEL;
  const targetOrigin = win.location.origin === 'null' ? '*' : win.location.origin;
  let closed = false;

  const post = (payload: unknown) => {
    if (!closed) win.postMessage(tabEnvelope(channel, 'server-to-client', payload), targetOrigin);
  };

  const reply = (id: RpcId, result: unknown) => post({ jsonrpc: '2.0', id, result });
  const fail = (id: RpcId | null, code: number, message: string) =>
    post({ jsonrpc: '2.0', id, error: { code, message } });

  const handle = async (request: RpcRequest) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    switch (request.method) {
      case 'initialize': {
        const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        const [serverInfo, capabilities] = await Promise.all([api.getServerInfo(), api.getCapabilities()]);
        return {
          protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : SUPPORTED_PROTOCOL_VERSIONS[0],
          capabilities,
          serverInfo,
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return api.listTools();
      case 'tools/call':
        return api.callTool(params as { name: string; arguments?: Record<string, unknown> });
      case 'resources/list': {
        const { resources } = await api.listResources();
        return { resources };
      }
      case 'resources/templates/list': {
        const { resourceTemplates } = await api.listResources();
        return { resourceTemplates: resourceTemplates ?? [] };
      }
      case 'resources/read':
        return api.readResource(params as { uri: string });
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return {};
      case 'prompts/list':
        return api.listPrompts();
      case 'prompts/get':
        return api.getPrompt(params as { name: string; arguments?: Record<string, string> });
      default:
        throw Object.assign(new Error(`Method not found: ${request.method}`), { code: ErrorCode.MethodNotFound });
    }
  };

  const onMessage = (event: MessageEvent) => {
    if (event.source !== win || !isTabEnvelope(event.data, channel, 'client-to-server')) return;
    const { payload } = event.data;
    if (payload === 'mcp-check-ready') {
      post('mcp-server-ready');
      return;
    }
    if (isRpcRequest(payload)) {
      handle(payload).then(
        (result) => reply(payload.id, result),
        (error: unknown) => {
          const code =
            typeof (error as { code?: unknown })?.code === 'number'
              ? (error as { code: number }).code
              : ErrorCode.InternalError;
          fail(payload.id, code, error instanceof Error ? error.message : String(error));
        },
      );
      return;
    }
    if (isRpcNotification(payload)) return;
    if (typeof payload === 'object' && payload !== null && 'method' in payload) {
      fail(null, ErrorCode.InvalidRequest, 'Invalid JSON-RPC request');
    }
  };

  const onNotification = (event: Event) => {
    const detail = (event as CustomEvent<McpNotificationDetail>).detail;
    const method = detail && NOTIFICATION_METHODS[detail.type];
    if (!method) return;
    post({ jsonrpc: '2.0', method, ...(detail.uri ? { params: { uri: detail.uri } } : {}) });
  };

  win.addEventListener('message', onMessage);
  api.addEventListener(MCP_NOTIFICATION_EVENT, onNotification);
  post('mcp-server-ready');

  return {
    close() {
      if (closed) return;
      post('mcp-server-stopped');
      closed = true;
      win.removeEventListener('message', onMessage);
      api.removeEventListener(MCP_NOTIFICATION_EVENT, onNotification);
    },
  };
}
