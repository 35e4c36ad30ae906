import type { TabClient } from '@tabmcp/page';
import {
  asCallToolResult,
  BackgroundToContent,
  CallToolResult,
  type ContentToBackground,
  ErrorCode,
  errorMessage,
  PORT_NAME,
  validate,
} from '@tabmcp/protocol';
import { adoptDocumentTag } from './document-tag';
import { reconnectBudget } from './reconnect-budget';

/** Starts the error for a page answer that is no tool result (sent with ErrorCode.FaultyToolResult). */
const NOT_A_RESULT = 'the page answered with something that is not a tool result';

export interface TabPort {
  post(message: ContentToBackground): void;
  close(): void;
}

const RECONNECT_DELAY_MS = 100;
const MAX_RECONNECTS = 20;
/** A Port up this long was no refusal: its drop is the worker stopping, as it does when idle. */
const HEALTHY_PORT_MS = 5_000;

/**
 * The tab's Port to the background. It answers executeTool requests through the page client and,
 * when the extension worker is stopped or restarted, connects again (which wakes the worker) and
 * calls `onconnect` so the tab registers its tools anew. A page kept in the back/forward cache
 * gives up its Port while it is hidden and opens a new one when it is shown again.
 */
export function connectPort(client: Pick<TabClient, 'request'>, onconnect: () => void, onclose: () => void): TabPort {
  let port: chrome.runtime.Port | undefined;
  let closed = false;
  const reconnects = reconnectBudget(MAX_RECONNECTS, HEALTHY_PORT_MS);

  const open = () => {
    try {
      port = chrome.runtime.connect({ name: PORT_NAME });
    } catch {
      // The extension was reloaded or removed: this content script is orphaned.
      shutDown();
      return;
    }
    const current = port;
    reconnects.connected();
    current.onMessage.addListener((raw: unknown) => {
      reconnects.healthy();
      const parsed = validate(BackgroundToContent, raw, 'background message');
      if (!parsed.ok) return;
      const request = parsed.value;
      if (request.method === 'browser/documentTag') {
        adoptDocumentTag(request.params.tag);
        return;
      }
      if (request.method === 'browser/pageRequest') {
        client.request(request.params.method, request.params.params ?? {}).then(
          (payload) => safePost(current, { jsonrpc: '2.0', id: request.id, result: { success: true, payload } }),
          (error: unknown) =>
            safePost(current, {
              jsonrpc: '2.0',
              id: request.id,
              result: { success: false, payload: errorMessage(error) },
            }),
        );
        return;
      }
      client.request('tools/call', { name: request.params.toolName, arguments: request.params.args }).then(
        (payload) => {
          // The page is untrusted: its answer must be a CallToolResult before it leaves the tab.
          const checked = validate(CallToolResult, asCallToolResult(payload), 'tool result');
          safePost(
            current,
            checked.ok
              ? { jsonrpc: '2.0', id: request.id, result: { success: true, payload: checked.value } }
              : {
                  jsonrpc: '2.0',
                  id: request.id,
                  result: {
                    success: false,
                    payload: `${NOT_A_RESULT} (${checked.error.message})`,
                    code: ErrorCode.FaultyToolResult,
                  },
                },
          );
        },
        (error: unknown) =>
          safePost(current, {
            jsonrpc: '2.0',
            id: request.id,
            result: { success: false, payload: errorMessage(error) },
          }),
      );
    });
    current.onDisconnect.addListener(() => {
      if (port !== current || closed) return;
      port = undefined;
      if (!reconnects.retry()) {
        shutDown();
        return;
      }
      setTimeout(open, RECONNECT_DELAY_MS);
    });
    onconnect();
  };

  const shutDown = () => {
    if (closed) return;
    closed = true;
    port?.disconnect();
    port = undefined;
    onclose();
  };

  window.addEventListener('pagehide', (event) => {
    if (!event.persisted || closed || !port) return;
    const cached = port;
    port = undefined;
    cached.disconnect();
  });
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted || closed || port) return;
    reconnects.healthy();
    open();
  });

  open();
  return {
    post: (message) => {
      if (port) safePost(port, message);
    },
    close: shutDown,
  };
}

function safePost(port: chrome.runtime.Port, message: ContentToBackground): void {
  try {
    port.postMessage(message);
  } catch {
    // The port closed between the check and the post; onDisconnect handles the rest.
  }
}
