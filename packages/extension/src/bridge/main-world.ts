import { serveTab, type WindowMcpApi } from '@tabmcp/page';
import { BRIDGE_CHANNEL } from './channel';

/**
 * Runs in the page's MAIN world, where `window.mcp` lives (content scripts cannot see page
 * objects). Serves a found `WindowMcpApi` over postMessage on a private channel for the content
 * script. Pages that already run an MCP-B tab server are reached directly on `mcp-default`.
 */
const API_METHODS = ['listTools', 'callTool', 'addEventListener'] as const;
const LOOK_FOR_MS = 5_000;

function findWindowMcp(): WindowMcpApi | undefined {
  const candidate = (window as { mcp?: unknown }).mcp;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const record = candidate as Record<string, unknown>;
  return API_METHODS.every((method) => typeof record[method] === 'function') ? (candidate as WindowMcpApi) : undefined;
}

function start(): void {
  const startedAt = Date.now();
  const look = () => {
    const api = findWindowMcp();
    if (api) {
      serveTab(api, { channel: BRIDGE_CHANNEL });
      return;
    }
    if (Date.now() - startedAt < LOOK_FOR_MS) setTimeout(look, 100);
  };
  look();
}

const marker = Symbol.for('tabmcp.bridge');
const scope = globalThis as { [marker]?: boolean };
if (!scope[marker]) {
  scope[marker] = true;
  start();
}
