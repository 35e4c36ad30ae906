import {
  DEFAULT_IFRAME_CHANNEL,
  ErrorCode,
  isTabEnvelope,
  MAX_MESSAGE_BYTES,
  tabEnvelope,
} from '@tabmcp/protocol/light';
import { isRpcRequest } from './jsonrpc-guard';
import { answerMcpRequest, errorOf, toMcpNotification } from './mcp-dispatch';
import type { TabServer } from './tab-server';
import { MCP_NOTIFICATION_EVENT, type McpNotificationDetail, type WindowMcpApi } from './types';

/** Another origin's request is capped like every other link's message (a cyclic one counts as too large). */
function tooLarge(payload: unknown): boolean {
  try {
    return JSON.stringify(payload).length > MAX_MESSAGE_BYTES;
  } catch {
    return true;
  }
}

export interface WindowServerOptions {
  /**
   * Origins of the windows (parent, iframes, openers) that may call this provider, e.g.
   * `['https://assistant.example']`. Required; `'*'` lets any origin in and must be written out.
   */
  allowedOrigins: string[];
  /** Defaults to MCP-B's iframe channel `mcp-iframe`. */
  channel?: string;
  window?: Window;
  /** Called when a window of another origin tried to talk to this provider and was ignored. */
  onRefused?: (origin: string) => void;
}

/**
 * Serves a `WindowMcpApi` to other windows over postMessage (docs/requirements.md "Cross-Origin"), in
 * MCP-B's envelope, so MCP-B's `IframeParentTransport` and our `McpWindowClient` can both connect.
 * Messages from origins not in `allowedOrigins` are dropped before anything runs; replies go to the
 * sender's exact origin, never to `'*'` unless `'*'` was allowed by name.
 */
export function serveWindow(api: WindowMcpApi, options: WindowServerOptions): TabServer {
  const allowed = new Set(options?.allowedOrigins ?? []);
  if (allowed.size === 0) {
    throw new TypeError("serveWindow: list the origins allowed to call this provider (allowedOrigins); '*' allows all");
  }
  const win = options.window ?? window;
  const channel = options.channel ?? DEFAULT_IFRAME_CHANNEL;
  const anyOrigin = allowed.has('*');
  // Every window that completed a handshake gets the provider's notifications.
  const peers = new Map<MessageEventSource, string>();
  let closed = false;

  const send = (peer: MessageEventSource, targetOrigin: string, payload: unknown) => {
    if (closed) return;
    (peer as Window).postMessage(tabEnvelope(channel, 'server-to-client', payload), targetOrigin);
  };

  const onMessage = (event: MessageEvent) => {
    if (!event.source || event.source === win || !isTabEnvelope(event.data, channel, 'client-to-server')) return;
    if (!(anyOrigin || allowed.has(event.origin))) {
      options.onRefused?.(event.origin);
      return;
    }
    // An opaque origin ("null", sandboxed frames) can only be reached with '*'.
    const targetOrigin = event.origin === 'null' ? '*' : event.origin;
    const source = event.source;
    const { payload } = event.data;
    if (payload === 'mcp-check-ready') {
      peers.set(source, targetOrigin);
      send(source, targetOrigin, 'mcp-server-ready');
      return;
    }
    if (!isRpcRequest(payload)) return;
    peers.set(source, targetOrigin);
    if (tooLarge(payload)) {
      const error = { code: ErrorCode.MessageTooLarge, message: `Request larger than ${MAX_MESSAGE_BYTES} bytes` };
      send(source, targetOrigin, { jsonrpc: '2.0', id: payload.id, error });
      return;
    }
    answerMcpRequest(api, payload).then(
      (result) => send(source, targetOrigin, { jsonrpc: '2.0', id: payload.id, result }),
      (error: unknown) => send(source, targetOrigin, { jsonrpc: '2.0', id: payload.id, error: errorOf(error) }),
    );
  };

  const onNotification = (event: Event) => {
    const notification = toMcpNotification((event as CustomEvent<McpNotificationDetail>).detail);
    if (!notification) return;
    for (const [peer, origin] of peers) {
      try {
        send(peer, origin, notification);
      } catch {
        peers.delete(peer); // the peer window is gone
      }
    }
  };

  win.addEventListener('message', onMessage);
  api.addEventListener(MCP_NOTIFICATION_EVENT, onNotification);

  return {
    close() {
      if (closed) return;
      for (const [peer, origin] of peers) {
        try {
          send(peer, origin, 'mcp-server-stopped');
        } catch {
          // already gone
        }
      }
      closed = true;
      peers.clear();
      win.removeEventListener('message', onMessage);
      api.removeEventListener(MCP_NOTIFICATION_EVENT, onNotification);
    },
  };
}
