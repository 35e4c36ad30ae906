import { type PageMcpApi, serveTab } from '@tabmcp/page';
import type { ToolSource } from '@tabmcp/protocol';
import { BRIDGE_CHANNEL, LOOK_NOW_EVENT, SOURCE_META_KEY } from './channel';
import { findFormTools } from './declarative-forms';
import { announceDialogs } from './dialog-announce';
import { watchPageActivity } from './page-activity';
import { hasWebMcpTools, watchPageTools } from './page-tools';
import { findModelContext } from './webmcp-context';

/**
 * Runs in the page's MAIN world, where page objects live (content scripts cannot see them), and
 * serves what it finds over postMessage on a private channel for the content script, naming the
 * source in the initialize result. In order: a `window.mcp` object (ours or hand-written), WebMCP
 * (`document.modelContext` / `navigator.modelContext`) with the declarative `<form toolname>`
 * forms. Pages that run an MCP-B tab server (`@mcp-b/global` does) are reached directly on
 * `mcp-default`, which the content script prefers, so no page is listed twice.
 */
const API_METHODS = ['listTools', 'callTool', 'addEventListener'] as const;
/** Most pages publish right away: look often at first, then now and then for a minute. */
const LOOK_OFTEN_FOR_MS = 5_000;
const LOOK_OFTEN_EVERY_MS = 100;
const LOOK_FOR_MS = 60_000;
const LOOK_SELDOM_EVERY_MS = 1_000;

function findWindowMcp(): PageMcpApi | undefined {
  const candidate = (window as { mcp?: unknown }).mcp;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const record = candidate as Record<string, unknown>;
  return API_METHODS.every((method) => typeof record[method] === 'function') ? (candidate as PageMcpApi) : undefined;
}

function serve(api: PageMcpApi, source: () => ToolSource): void {
  serveTab(api, {
    channel: BRIDGE_CHANNEL,
    get serverMeta() {
      return { [SOURCE_META_KEY]: source() };
    },
  });
}

async function serveWebMcp(): Promise<void> {
  const tools = await watchPageTools(findModelContext());
  serve(tools.provider, tools.source);
}

function start(): void {
  const startedAt = Date.now();
  let serving = false;
  /** Serves what it finds; false when the page has nothing to serve yet. */
  const look = async (): Promise<boolean> => {
    if (serving) return true;
    const api = findWindowMcp();
    if (api) {
      serving = true;
      serve(api, () => 'window.mcp');
      return true;
    }
    const context = findModelContext();
    const hasForms = document.readyState !== 'loading' && findFormTools().length > 0;
    if (hasForms || (context && (await hasWebMcpTools(context)))) {
      if (serving) return true;
      serving = true;
      await serveWebMcp();
      return true;
    }
    return false;
  };
  const poll = async () => {
    if (await look()) return;
    const elapsed = Date.now() - startedAt;
    if (elapsed < LOOK_FOR_MS) {
      const every = elapsed < LOOK_OFTEN_FOR_MS ? LOOK_OFTEN_EVERY_MS : LOOK_SELDOM_EVERY_MS;
      setTimeout(() => void poll().catch(report), every);
      return;
    }
    // A WebMCP page that registers its first tool late still gets served.
    const serveLate = () => {
      if (serving) return;
      serving = true;
      void serveWebMcp().catch(report);
    };
    findModelContext()?.addEventListener('toolchange', serveLate, { once: true });
  };
  // The content script asks before its handshake (channel.ts), so it need not wait for the next poll.
  document.addEventListener(LOOK_NOW_EVENT, () => void look().catch(report));
  void poll().catch(report);
}

function report(error: unknown): void {
  console.debug('[tabmcp bridge]', error instanceof Error ? error.message : error);
}

const marker = Symbol.for('tabmcp.bridge');
const scope = globalThis as { [marker]?: boolean };
if (!scope[marker]) {
  scope[marker] = true;
  announceDialogs();
  watchPageActivity();
  start();
}
