import type { BackgroundToContent, ContentToBackground } from '@tabmcp/protocol';

/**
 * How the hub talks to tabs (docs/requirements.md#hub's Tab-Hub transport). The extension implements it with
 * chrome.runtime Ports; tests implement it in memory. Incoming messages are already validated.
 */
export interface TabTransport {
  send(tabId: number, message: BackgroundToContent): void;
  onmessage: ((tabId: number, message: ContentToBackground, senderUrl: string | undefined) => void) | undefined;
  ondisconnect: ((tabId: number) => void) | undefined;
}
