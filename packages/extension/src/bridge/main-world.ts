import { type PageMcpApi, serveTab } from '@tabmcp/page';
import type { ToolSource } from '@tabmcp/protocol';
import { BRIDGE_CHANNEL, BRIDGE_PRESENT_EVENT, BRIDGE_SLEEP_EVENT, LOOK_NOW_EVENT, SOURCE_META_KEY } from './channel';
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
 *
 * It is never in a page by itself: the background injects it into an allowed site's document when
 * that document's content script asks, which it does only while an agent is connected
 * (background/page-injection.ts; docs/security.md, "What runs in a page"). It leaves no global.
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

function serve(api: PageMcpApi, source: () => ToolSource): () => void {
  const server = serveTab(api, {
    channel: BRIDGE_CHANNEL,
    get serverMeta() {
      return { [SOURCE_META_KEY]: source() };
    },
  });
  return () => server.close();
}

/**
 * Looks for the page's tools now, when asked, and on a schedule of its own for a minute. Its timer
 * is the browser's own, taken before any hook: the bridge's looking is no follow-up of an action
 * and never holds one's answer (issue 38). Returns how to stop looking and serving.
 */
function discover(nativeSetTimeout: typeof window.setTimeout): () => void {
  const startedAt = Date.now();
  let serving = false;
  let stopped = false;
  let timer: number | undefined;
  const stops: Array<() => void> = [];
  const serveWebMcp = async () => {
    const tools = await watchPageTools(findModelContext(), nativeSetTimeout);
    if (stopped) return tools.stop();
    stops.push(tools.stop, serve(tools.provider, tools.source));
  };
  /** Serves what it finds; false when the page has nothing to serve yet. */
  const look = async (): Promise<boolean> => {
    if (serving || stopped) return true;
    const api = findWindowMcp();
    if (api) {
      serving = true;
      stops.push(serve(api, () => 'window.mcp'));
      return true;
    }
    const context = findModelContext();
    const hasForms = document.readyState !== 'loading' && findFormTools().length > 0;
    if (hasForms || (context && (await hasWebMcpTools(context)))) {
      if (serving || stopped) return true;
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
      timer = nativeSetTimeout(() => void poll().catch(report), every);
      return;
    }
    // A WebMCP page that registers its first tool late still gets served.
    const context = findModelContext();
    const serveLate = () => {
      if (serving || stopped) return;
      serving = true;
      void serveWebMcp().catch(report);
    };
    context?.addEventListener('toolchange', serveLate, { once: true });
    stops.push(() => context?.removeEventListener('toolchange', serveLate));
  };
  // The content script asks before its handshake (channel.ts), so it need not wait for the next poll.
  const lookNow = () => void look().catch(report);
  document.addEventListener(LOOK_NOW_EVENT, lookNow);
  void poll().catch(report);
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener(LOOK_NOW_EVENT, lookNow);
    for (const stop of stops) stop();
  };
}

function report(error: unknown): void {
  console.debug('[tabmcp bridge]', error instanceof Error ? error.message : error);
}

function start(): void {
  // Taken before any hook of the bridge's own (page-activity.ts puts them on only during a call).
  const nativeSetTimeout = window.setTimeout.bind(window);
  const claim = (event: Event) => event.preventDefault();
  document.addEventListener(BRIDGE_PRESENT_EVENT, claim);
  const stops = [announceDialogs(), watchPageActivity(nativeSetTimeout), discover(nativeSetTimeout)];
  const sleep = () => {
    document.removeEventListener(BRIDGE_PRESENT_EVENT, claim);
    document.removeEventListener(BRIDGE_SLEEP_EVENT, sleep);
    for (const stop of stops) stop();
  };
  document.addEventListener(BRIDGE_SLEEP_EVENT, sleep);
}

// Another copy of the bridge already serves this document when it cancels the event.
if (document.dispatchEvent(new CustomEvent(BRIDGE_PRESENT_EVENT, { cancelable: true }))) start();
