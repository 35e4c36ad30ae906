import type { Hub } from '@tabmcp/hub';
import { waitUntil } from '@tabmcp/protocol';

/**
 * A version number of "the tabs and their tools", bumped by every change, so a remote MCP side can
 * long-poll getTabs {sinceVersion} instead of the extension pushing events (it is passive in
 * docs/requirements.md#remote-proxy). Changes of one burst are answered together.
 */
export class TabWatch {
  #version = 1;
  readonly #waiters = new Set<() => void>();
  #flush: ReturnType<typeof setTimeout> | undefined;

  constructor(hub: Hub) {
    hub.onToolsChanged(() => this.#bump());
    chrome.tabs.onCreated.addListener(() => this.#bump());
    chrome.tabs.onRemoved.addListener(() => this.#bump());
    chrome.tabs.onActivated.addListener(() => this.#bump());
    chrome.tabs.onUpdated.addListener((_tabId, change) => {
      if (change.url !== undefined || change.title !== undefined || change.status === 'complete') this.#bump();
    });
  }

  get version(): number {
    return this.#version;
  }

  /** Resolves once the version differs from `since`, or after `waitMs`. */
  wait(since: number, waitMs: number): Promise<void> {
    if (since !== this.#version || waitMs === 0) return Promise.resolve();
    return waitUntil<void>(
      (done) => {
        const wake = () => done();
        this.#waiters.add(wake);
        return () => this.#waiters.delete(wake);
      },
      { timeoutMs: waitMs, onTimeout: () => undefined },
    );
  }

  #bump(): void {
    this.#version += 1;
    if (this.#flush !== undefined) return;
    this.#flush = setTimeout(() => {
      this.#flush = undefined;
      for (const waiter of [...this.#waiters]) waiter();
    }, 10);
  }
}
