import type { TabClient } from '@tabmcp/page';
import { DESCRIBE_CALL } from '@tabmcp/protocol';
import { isTabEnvelope } from '@tabmcp/protocol/light';
import { afterPageTurn } from '../page-turn';
import { DomToolServer } from './dom-tool-server';
import { markIfUnloading } from './unload-watch';

/** Page changes are re-read at most this often. */
const REFRESH_DEBOUNCE_MS = 300;

export interface DomToolSource {
  server: DomToolServer;
  stop(): void;
}

export interface ScheduledDomTools {
  /** Cancels a pending start; a running source is stopped by its owner. */
  cancel(): void;
}

/**
 * Starts DOM-derived tools for this tab (source 'dom') once the page servers asked on `channels`
 * had their turn to answer and none did (content/page-turn.ts: the page's own message queue, no
 * fixed wait; `boundMs` only if the probe is lost), or at once when `channels` is empty. On a busy
 * machine a server's initialize may still be on the way after its handshake answer. The content
 * script publishes them on the tab's one Port and drops them as soon as the page's own server is found.
 */
export function scheduleDomTools(
  boundMs: number,
  channels: string[],
  onstart: (source: DomToolSource) => void,
  announce: () => Promise<void>,
  pageChanged: () => void,
  report: (error: unknown) => void,
): ScheduledDomTools {
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window) return;
    if (channels.some((channel) => isTabEnvelope(event.data, channel, 'server-to-client'))) cancel();
  };
  const start = () => {
    window.removeEventListener('message', onMessage);
    try {
      const server = new DomToolServer(document);
      const stopObserving = server.observe(REFRESH_DEBOUNCE_MS, announce, pageChanged);
      onstart({ server, stop: stopObserving });
    } catch (error) {
      report(error);
    }
  };
  let cancelled = false;
  let cancelTurn = () => {};
  if (channels.length > 0) cancelTurn = afterPageTurn(start, boundMs);
  else
    queueMicrotask(() => {
      if (!cancelled) start();
    });
  const cancel = () => {
    cancelled = true;
    cancelTurn();
    window.removeEventListener('message', onMessage);
  };
  window.addEventListener('message', onMessage);
  return { cancel };
}

type Requester = Pick<TabClient, 'request'>;

/**
 * A page's own server with the two reading tools beside its tools (docs/dom-tools.md): its list
 * gets get_page_content and open_link (renamed tabmcp_… on a clash), and calls of those two are
 * answered here; everything else goes to the page.
 */
export function withReadingTools(page: Requester, doc: Document): Requester {
  let reading: DomToolServer | undefined;
  let readOnly = new Set<string>();
  return {
    request: async (method, params) => {
      if (method === 'tools/list') {
        const result = (await page.request(method, params)) as { tools?: unknown } | undefined;
        const pageTools = Array.isArray(result?.tools) ? (result.tools as unknown[]) : [];
        const named = pageTools.flatMap((tool) => {
          const { name, annotations } = (tool ?? {}) as { name?: unknown; annotations?: { readOnlyHint?: unknown } };
          return typeof name === 'string' ? [{ name, readOnly: annotations?.readOnlyHint === true }] : [];
        });
        const taken = named.map((tool) => tool.name);
        readOnly = new Set(named.filter((tool) => tool.readOnly).map((tool) => tool.name));
        reading = new DomToolServer(doc, { reading: true, reserved: taken });
        return { ...result, tools: [...pageTools, ...reading.tools] };
      }
      const call = params as { name?: unknown; arguments?: Record<string, unknown> } | undefined;
      // Answered here, never by the page: its own tools are judged by their annotations.
      if (method === DESCRIBE_CALL)
        return typeof call?.name === 'string' && reading?.has(call.name)
          ? reading.describe(params)
          : { derived: false };
      if (method === 'tools/call' && typeof call?.name === 'string' && reading?.has(call.name))
        return reading.call(call.name, call.arguments ?? {});
      if (method === 'tools/call')
        return markIfUnloading(() => page.request(method, params), readOnly.has(String(call?.name)));
      return page.request(method, params);
    },
  };
}
