import type { TabTransport } from '@tabmcp/hub';
import {
  type BackgroundToContent,
  ContentToBackground,
  type Logger,
  MAX_MESSAGE_BYTES,
  PORT_NAME,
  serializedSize,
  validate,
} from '@tabmcp/protocol';
import { markTab } from './navigation-report';

/**
 * The hub's TabTransport over chrome.runtime Ports: one Port per tab (top frame only). Every
 * message is size-capped and schema-checked here; a bad one is logged and dropped, never thrown.
 */
export class ChromeTabTransport implements TabTransport {
  readonly #ports = new Map<number, chrome.runtime.Port>();
  onmessage: TabTransport['onmessage'];
  ondisconnect: TabTransport['ondisconnect'];

  constructor(private readonly log: Logger) {
    chrome.runtime.onConnect.addListener((port) => this.#accept(port));
  }

  send(tabId: number, message: BackgroundToContent): void {
    const port = this.#ports.get(tabId);
    if (!port) throw new Error(`Tab ${tabId} has no connected content script`);
    port.postMessage(message);
  }

  #accept(port: chrome.runtime.Port): void {
    const tabId = port.sender?.tab?.id;
    if (port.name !== PORT_NAME || tabId === undefined || port.sender?.frameId !== 0) {
      port.disconnect();
      return;
    }
    const senderUrl = port.sender?.url;
    // A reload or navigation opens a new port for the same tab: the old one is finished.
    const previous = this.#ports.get(tabId);
    if (previous) {
      this.#ports.delete(tabId);
      previous.disconnect();
      this.ondisconnect?.(tabId);
    }
    this.#ports.set(tabId, port);
    port.onMessage.addListener((raw: unknown) => {
      const size = serializedSize(raw);
      const parsed =
        size > MAX_MESSAGE_BYTES
          ? {
              ok: false as const,
              reason: `the page's message is ${size} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit`,
            }
          : validate(ContentToBackground, raw, 'tab message');
      if (!parsed.ok) {
        const reason = 'reason' in parsed ? parsed.reason : parsed.error.message;
        this.log('port.rejected', { tabId, reason });
        // An answer the hub waits for still settles its call, at once, with the reason.
        const id = answerId(raw);
        if (id !== undefined) {
          this.onmessage?.(
            tabId,
            { jsonrpc: '2.0', id, result: { success: false, payload: `The page answered, but ${reason}` } },
            senderUrl,
          );
        }
        return;
      }
      if ('params' in parsed.value && 'tabUrl' in parsed.value.params) {
        const claimed = parsed.value.params.tabUrl;
        if (claimed && senderUrl && new URL(claimed).origin !== new URL(senderUrl).origin) {
          this.log('port.rejected', { tabId, reason: `claimed ${claimed} but the port belongs to ${senderUrl}` });
          return;
        }
      }
      markTab(parsed.value, tabId);
      this.onmessage?.(tabId, parsed.value, senderUrl);
    });
    port.onDisconnect.addListener(() => {
      if (this.#ports.get(tabId) !== port) return;
      this.#ports.delete(tabId);
      this.ondisconnect?.(tabId);
    });
  }
}

/** The id of something shaped like a page's answer (`{id, result}`), however broken its payload. */
function answerId(raw: unknown): string | number | undefined {
  if (typeof raw !== 'object' || raw === null || !('result' in raw)) return undefined;
  const id = (raw as { id?: unknown }).id;
  return (typeof id === 'string' && id.length <= 512) || Number.isInteger(id) ? (id as string | number) : undefined;
}
