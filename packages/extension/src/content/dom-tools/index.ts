import { isTabEnvelope } from '@tabmcp/protocol/light';
import { DomToolServer } from './dom-tool-server';

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
  onchange: () => void,
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
      const stopObserving = server.observe(REFRESH_DEBOUNCE_MS, onchange);
      onstart({ server, stop: stopObserving });
    } catch (error) {
      report(error);
    }
  }, delayMs);
  window.addEventListener('message', onMessage);
  return { cancel };
}
