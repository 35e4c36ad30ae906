import type { TabClient } from '@tabmcp/page';
import { isTabEnvelope } from '@tabmcp/protocol/light';
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
 * Starts DOM-derived tools for this tab (source 'dom') after `delayMs`, unless a page server
 * answered the handshake on one of `channels` by then (on a busy machine its initialize may still
 * be on the way). The content script publishes them on the tab's one Port and drops them as soon
 * as the page's own server is found.
 */
export function scheduleDomTools(
  delayMs: number,
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
  const cancel = () => {
    clearTimeout(timer);
    window.removeEventListener('message', onMessage);
  };
  const timer = setTimeout(() => {
    window.removeEventListener('message', onMessage);
    try {
      const server = new DomToolServer(document);
      const stopObserving = server.observe(REFRESH_DEBOUNCE_MS, announce, pageChanged);
      onstart({ server, stop: stopObserving });
    } catch (error) {
      report(error);
    }
  }, delayMs);
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
      if (method === 'tools/call' && typeof call?.name === 'string' && reading?.has(call.name))
        return reading.call(call.name, call.arguments ?? {});
      if (method === 'tools/call')
        return markIfUnloading(() => page.request(method, params), readOnly.has(String(call?.name)));
      return page.request(method, params);
    },
  };
}
