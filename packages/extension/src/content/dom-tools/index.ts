import type { Tool } from '@tabmcp/protocol';
import { isTabEnvelope } from '@tabmcp/protocol/light';
import { connectPort, type TabPort } from '../port';
import { DomToolServer } from './dom-tool-server';

/** Page changes are re-read at most this often. */
const REFRESH_DEBOUNCE_MS = 300;

export interface DomTools {
  stop(): void;
}

/**
 * Publishes DOM-derived tools for this tab (source 'dom') after `delayMs`, unless a page server
 * answered the handshake on one of `channels` by then (on a busy machine its initialize may still
 * be on the way). A page's own server, once found, takes precedence: the caller stops these.
 */
export function scheduleDomTools(delayMs: number, channels: string[], report: (error: unknown) => void): DomTools {
  let running: DomTools | undefined;
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window) return;
    if (channels.some((channel) => isTabEnvelope(event.data, channel, 'server-to-client'))) stopWaiting();
  };
  const stopWaiting = () => {
    clearTimeout(timer);
    window.removeEventListener('message', onMessage);
  };
  const timer = setTimeout(() => {
    window.removeEventListener('message', onMessage);
    try {
      running = startDomTools();
    } catch (error) {
      report(error);
    }
  }, delayMs);
  window.addEventListener('message', onMessage);
  return {
    stop: () => {
      stopWaiting();
      running?.stop();
      running = undefined;
    },
  };
}

function startDomTools(): DomTools {
  const server = new DomToolServer(document);
  let port: TabPort | undefined;
  let lastSent = '';
  const publish = (tools: Tool[], first: boolean) => {
    const signature = JSON.stringify(tools);
    if (!first && signature === lastSent) return;
    lastSent = signature;
    port?.post(
      first
        ? { jsonrpc: '2.0', method: 'browser/registerTools', params: { tools, tabUrl: location.href, source: 'dom' } }
        : { jsonrpc: '2.0', method: 'browser/updateTools', params: { tools, source: 'dom' } },
    );
  };
  const stopObserving = server.observe(REFRESH_DEBOUNCE_MS, () => publish(server.tools, false));
  // The first connect calls back before connectPort returns: publish once `port` is set.
  port = connectPort(server, () => queueMicrotask(() => publish(server.tools, true)), stopObserving);
  return {
    stop: () => {
      stopObserving();
      port?.close();
    },
  };
}
