import { ErrorCode, errorMessage, ProtocolError } from '@tabmcp/protocol';

const PROTOCOL_VERSION = '1.3';

/**
 * chrome.debugger sessions, one per tab, attached on first use and kept until the tab closes or
 * the user cancels the "started debugging" bar (CDP state such as enabled domains survives between
 * forwarded commands that way).
 */
export class DebuggerSessions {
  readonly #attaching = new Map<number, Promise<void>>();

  constructor() {
    chrome.debugger.onDetach.addListener((source) => {
      if (source.tabId !== undefined) this.#attaching.delete(source.tabId);
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.#attaching.delete(tabId));
  }

  async send<T = unknown>(tabId: number, method: string, params?: Record<string, unknown>): Promise<T> {
    await this.#attach(tabId);
    try {
      return (await chrome.debugger.sendCommand({ tabId }, method, params)) as T;
    } catch (error) {
      throw new ProtocolError(ErrorCode.ServerError, `CDP ${method} failed in tab ${tabId}: ${errorMessage(error)}`);
    }
  }

  #attach(tabId: number): Promise<void> {
    let attaching = this.#attaching.get(tabId);
    if (!attaching) {
      attaching = chrome.debugger.attach({ tabId }, PROTOCOL_VERSION).catch((error: unknown) => {
        const message = errorMessage(error);
        // A worker restart forgets that it had attached; the tab still is.
        if (/already attached/i.test(message)) return;
        this.#attaching.delete(tabId);
        throw new ProtocolError(
          /no tab/i.test(message) ? ErrorCode.TabNotFound : ErrorCode.ServerError,
          `Cannot debug tab ${tabId}: ${message}`,
        );
      });
      this.#attaching.set(tabId, attaching);
    }
    return attaching;
  }
}
