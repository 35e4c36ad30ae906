import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '@tabmcp/protocol';
import type { McpView } from '../views/mcp-view';
import { legacyResourceNotFound } from './page-errors';
import { createMcpServer } from './serve-mcp';
import { LineStdioServerTransport } from './stdio-transport';
import { ToolSubscriptions } from './tool-subscriptions';

export interface StdioServeOptions {
  log: Logger;
  /** `--fallback-tools`: always on, whatever the era. */
  fallbackTools?: boolean;
  /**
   * The client asked for more than `server/discover`: this connection is a session, not an era
   * probe that a 2.x client runs on a short-lived sibling process and then kills. Called once;
   * tool calls wait for what it returns (the browser link listening, or its port problem known).
   */
  onsession?: () => Promise<void>;
  /** The connection ended (stdout broke, or the transport was closed). */
  onclose?: () => void;
  /** `--auto-connect`: awaited before tools are listed or called (auto-connect.ts). */
  beforeTools?: () => Promise<void>;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/**
 * MCP over stdio in both protocol eras: the SDK's `serveStdio` reads the opening message
 * (`initialize` for 2025-11-25 and older, `server/discover` or an enveloped request for
 * 2026-07-28) and pins one instance from the factory for the connection. The factory only wraps
 * the existing view, so the probe instance the SDK builds and discards starts nothing.
 */
export function serveStdioBothEras(view: McpView, options: StdioServeOptions): { close(): Promise<void> } {
  const transport = new LineStdioServerTransport(options.stdin, options.stdout);
  const subscriptions = new ToolSubscriptions((fallback) => {
    if (options.fallbackTools) return;
    options.log('mcp.auto-fallback', { fallback });
    view.setAutoFallback?.(fallback);
  });
  let session: Promise<void> | undefined;
  const startSession = () => {
    session ??= options.onsession?.() ?? Promise.resolve();
    return session;
  };
  transport.oninbound = (message) => {
    if (!('method' in message && message.method === 'server/discover')) void startSession();
    subscriptions.observe(message);
    // Debug level only (log.ts): what a one-shot client actually sent, when it fails to reach a tool.
    options.log('mcp.message', {
      ...('method' in message ? { method: message.method } : {}),
      ...('id' in message ? { id: message.id } : {}),
    });
  };
  transport.onended = options.onclose;
  const handle = serveStdio(
    ({ era }) => {
      subscriptions.pinned(era);
      transport.outbound = era === 'legacy' ? legacyResourceNotFound : undefined;
      return createMcpServer(view, {
        beforeTools: async () => {
          await startSession();
          await options.beforeTools?.();
        },
      });
    },
    {
      transport,
      onerror: (error) => options.log('mcp.error', { message: error.message }),
    },
  );
  return handle;
}
