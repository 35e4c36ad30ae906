import { errorMessage } from '@tabmcp/protocol';
import type { BrowserConnection } from './core/browser-connection';
import type { McpView } from './views/mcp-view';

/**
 * How long the first tools/list waits for the browser link: a peer joins its owner's browser at
 * once, but when this process owns the port, an idle extension dials it only every 5 s (its
 * longest backoff), so the wait outlasts one such round.
 */
const AUTO_CONNECT_WAIT_MS = 8_000;

export interface AutoConnectOptions {
  view: McpView;
  link: Pick<BrowserConnection, 'waitUntilUp'>;
  /** The `all` view's hub tool list, fetched again once connected, so the first list has them. */
  listHubTools?: () => Promise<void>;
  waitMs?: number;
  log: (event: string, details?: Record<string, unknown>) => void;
}

/**
 * `--auto-connect` (issue 11): a client that starts a new tabmcp per call (the Inspector CLI)
 * never gets to call connect_browser and then list again. So the first tools/list or tools/call
 * waits, bounded, for the browser link and connects without launching anything; later requests
 * find it done. Returns what the MCP handlers await before they answer.
 */
export function autoConnect(options: AutoConnectOptions): () => Promise<void> {
  let once: Promise<void> | undefined;
  const connect = async () => {
    const waitMs = options.waitMs ?? AUTO_CONNECT_WAIT_MS;
    if (!(await options.link.waitUntilUp(waitMs))) {
      options.log('auto-connect.no-browser', {
        waitedMs: waitMs,
        fix: 'start the browser with the tabmcp extension, or a tabmcp that owns one',
      });
      return;
    }
    const result = await options.view.callTool('connect_browser', { launch: false });
    if (result.isError) {
      options.log('auto-connect.failed', { result: result.content });
      return;
    }
    await options.listHubTools?.();
    options.log('auto-connect.connected');
  };
  return () => {
    once ??= connect().catch((error: unknown) => options.log('auto-connect.failed', { error: errorMessage(error) }));
    return once;
  };
}
