import { ErrorCode, ProtocolError } from '@tabmcp/protocol/light';
import type { RpcRequest } from './jsonrpc-guard';
import { listableTools } from './listable-tools';
import type { McpNotificationDetail, WindowMcpApi } from './types';

const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export const NOTIFICATION_METHODS: Record<McpNotificationDetail['type'], string> = {
  toolsListChanged: 'notifications/tools/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourceUpdated: 'notifications/resources/updated',
};

/** The MCP notification for a provider's `mcpNotification` event, or undefined for unknown kinds. */
export function toMcpNotification(detail: McpNotificationDetail | undefined) {
  const method = detail && NOTIFICATION_METHODS[detail.type];
  if (!method) return undefined;
  return { jsonrpc: '2.0' as const, method, ...(detail.uri ? { params: { uri: detail.uri } } : {}) };
}

/**
 * A page's `window.mcp` as found in the wild: `listTools` and `callTool` at least, the rest
 * optional (docs/requirements.md#page-sdk lists eight methods; hand-written objects often have only those two).
 */
export type PageMcpApi = Pick<WindowMcpApi, 'listTools' | 'callTool' | keyof EventTarget> &
  Partial<Omit<WindowMcpApi, 'listTools' | 'callTool' | keyof EventTarget>>;

/** What a page without getCapabilities offers: what its methods show. */
function capabilitiesOf(api: PageMcpApi) {
  return {
    tools: {},
    ...(api.listResources ? { resources: {} } : {}),
    ...(api.listPrompts ? { prompts: {} } : {}),
  };
}

/** Answers one MCP request with a `WindowMcpApi`: the server half shared by every postMessage face. */
export async function answerMcpRequest(
  api: PageMcpApi,
  request: RpcRequest,
  serverMeta?: Record<string, unknown>,
): Promise<unknown> {
  const params = (request.params ?? {}) as Record<string, unknown>;
  switch (request.method) {
    case 'initialize': {
      const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
      const [serverInfo, capabilities] = await Promise.all([
        api.getServerInfo?.() ?? { name: 'window.mcp', version: '0' },
        api.getCapabilities?.() ?? capabilitiesOf(api),
      ]);
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : SUPPORTED_PROTOCOL_VERSIONS[0],
        capabilities,
        serverInfo,
        ...(serverMeta ? { _meta: serverMeta } : {}),
      };
    }
    case 'ping':
      return {};
    case 'tools/list': {
      // A hand-written window.mcp answers with whatever it holds: one bad tool must not sink the answer.
      const listed = await api.listTools();
      return Array.isArray(listed?.tools) ? { ...listed, tools: listableTools(listed.tools) } : listed;
    }
    case 'tools/call':
      return api.callTool(params as { name: string; arguments?: Record<string, unknown> });
    case 'resources/list': {
      const listed = await api.listResources?.();
      return { resources: listed?.resources ?? [] };
    }
    case 'resources/templates/list': {
      const listed = await api.listResources?.();
      return { resourceTemplates: listed?.resourceTemplates ?? [] };
    }
    case 'resources/read':
      if (!api.readResource) throw new ProtocolError(ErrorCode.MethodNotFound, 'This page has no resources');
      return api.readResource(params as { uri: string });
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return {};
    case 'prompts/list':
      return (await api.listPrompts?.()) ?? { prompts: [] };
    case 'prompts/get':
      if (!api.getPrompt) throw new ProtocolError(ErrorCode.MethodNotFound, 'This page has no prompts');
      return api.getPrompt(params as { name: string; arguments?: Record<string, string> });
    default:
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
}

export function errorOf(error: unknown): { code: number; message: string } {
  const code = typeof (error as { code?: unknown })?.code === 'number' ? (error as { code: number }).code : -32603;
  return { code, message: error instanceof Error ? error.message : String(error) };
}
