import type { TabClient } from '@tabmcp/page';
import { type Tool, Tool as ToolSchema, type ToolSource, validate } from '@tabmcp/protocol';
import { BRIDGE_CHANNEL } from '../bridge/channel';
import { scheduleDomTools } from './dom-tools';
import { findPageServer } from './find-page-server';
import { connectPort, type TabPort } from './port';
import { rateLimited } from './rate-limit';

/**
 * The proxy of mcp-b.md, one per tab: finds the page's MCP server, reports its tools to the
 * background over a Port, and relays calls. Runs in the isolated world; the page is untrusted.
 */
const UPDATE_DEBOUNCE_MS = 500;
const PAGE_NOTIFICATIONS = new Set([
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/prompts/list_changed',
]);
type PageNotificationMethod =
  | 'notifications/resources/list_changed'
  | 'notifications/resources/updated'
  | 'notifications/prompts/list_changed';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
const POLL_INTERVAL_MS = 60_000;
/** Pages with their own tools usually answer well within this; later ones still take precedence. */
const DOM_TOOLS_AFTER_MS = 400;

async function main(): Promise<void> {
  // A page that publishes no tools gets DOM-derived ones; its own server, once found, replaces them.
  const domTools = scheduleDomTools(DOM_TOOLS_AFTER_MS, ['mcp-default', BRIDGE_CHANNEL], reportError);
  const found = await findPageServer([
    { channel: 'mcp-default', source: 'mcp-b' },
    { channel: BRIDGE_CHANNEL, source: 'window.mcp' },
  ]);
  if (!found) return;
  domTools.stop();
  const { client, source } = found;
  let lastSent = '';

  // Declared before the port exists; the port's first connect calls it.
  let port: TabPort | undefined;
  const publish = async (method: 'browser/registerTools' | 'browser/updateTools') => {
    const tools = await listTools(client, source);
    const signature = JSON.stringify(tools);
    if (method === 'browser/updateTools' && signature === lastSent) return;
    lastSent = signature;
    port?.post(
      method === 'browser/registerTools'
        ? { jsonrpc: '2.0', method, params: { tools, tabUrl: location.href, source } }
        : { jsonrpc: '2.0', method, params: { tools, source } },
    );
  };

  const updates = rateLimited(() => void publish('browser/updateTools').catch(reportError), UPDATE_DEBOUNCE_MS);
  client.onnotification = (notification) => {
    if (PAGE_NOTIFICATIONS.has(notification.method)) {
      port?.post({
        jsonrpc: '2.0',
        method: 'browser/pageNotification',
        params: {
          method: notification.method as PageNotificationMethod,
          ...(isRecord(notification.params) ? { params: notification.params } : {}),
        },
      });
      return;
    }
    if (notification.method !== 'notifications/tools/list_changed') return;
    updates.schedule();
  };
  // Pages that never send list_changed still get their changes seen, at a slow pace.
  const poll = setInterval(() => void publish('browser/updateTools').catch(reportError), POLL_INTERVAL_MS);
  port = connectPort(
    client,
    () => void publish('browser/registerTools').catch(reportError),
    () => {
      clearInterval(poll);
      client.close('The extension went away');
    },
  );
  client.onclose = () => {
    clearInterval(poll);
    port?.close();
  };
}

async function listTools(client: TabClient, source: ToolSource): Promise<Tool[]> {
  const result = (await client.request('tools/list')) as { tools?: unknown };
  if (!Array.isArray(result?.tools)) throw new Error(`The page's ${source} server returned no tool list`);
  // One malformed tool must not hide the page's other tools: drop it here with its reason.
  return result.tools.flatMap((raw: unknown) => {
    const checked = validate(ToolSchema, raw, 'page tool');
    if (checked.ok) return [checked.value];
    reportError(checked.error);
    return [];
  });
}

function reportError(error: unknown): void {
  console.debug('[tabmcp]', error instanceof Error ? error.message : error);
}

// Injected twice (manifest and scripting.executeScript after an extension reload) must not double up.
const marker = Symbol.for('tabmcp.content');
const scope = globalThis as { [marker]?: boolean };
if (!scope[marker]) {
  scope[marker] = true;
  main().catch(reportError);
}
