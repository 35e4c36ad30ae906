import { DEFAULT_TAB_CHANNEL, ErrorCode, isTabEnvelope, tabEnvelope } from '@tabmcp/protocol/light';
import { isRpcNotification, isRpcRequest } from './jsonrpc-guard';
import { answerMcpRequest, errorOf, type PageMcpApi, toMcpNotification } from './mcp-dispatch';
import { MCP_NOTIFICATION_EVENT, type McpNotificationDetail } from './types';

export interface TabServerOptions {
  channel?: string;
  /** The window to serve on; defaults to the current one. */
  window?: Window;
  /** Extra `_meta` of the initialize result (the extension's bridge names its source there). */
  serverMeta?: Record<string, unknown>;
}

export interface TabServer {
  close(): void;
}

/**
 * Serves any `WindowMcpApi` as an MCP server over postMessage, wire-compatible with MCP-B's
 * `TabServerTransport`: the extension's content script, or any `TabClientTransport`, can connect.
 * Only messages from this same window are accepted, and replies never leave it.
 */
export function serveTab(api: PageMcpApi, options: TabServerOptions = {}): TabServer {
  const win = options.window ?? window;
  const channel = options.channel ?? DEFAULT_TAB_CHANNEL;
  const targetOrigin = win.location.origin === 'null' ? '*' : win.location.origin;
  let closed = false;

  const post = (payload: unknown) => {
    if (!closed) win.postMessage(tabEnvelope(channel, 'server-to-client', payload), targetOrigin);
  };

  const onMessage = (event: MessageEvent) => {
    if (event.source !== win || !isTabEnvelope(event.data, channel, 'client-to-server')) return;
    const { payload } = event.data;
    if (payload === 'mcp-check-ready') {
      post('mcp-server-ready');
      return;
    }
    if (isRpcRequest(payload)) {
      answerMcpRequest(api, payload, options.serverMeta).then(
        (result) => post({ jsonrpc: '2.0', id: payload.id, result }),
        (error: unknown) => post({ jsonrpc: '2.0', id: payload.id, error: errorOf(error) }),
      );
      return;
    }
    if (isRpcNotification(payload)) return;
    if (typeof payload === 'object' && payload !== null && 'method' in payload) {
      post({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.InvalidRequest, message: 'Invalid JSON-RPC request' },
      });
    }
  };

  const onNotification = (event: Event) => {
    const notification = toMcpNotification((event as CustomEvent<McpNotificationDetail>).detail);
    if (notification) post(notification);
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
