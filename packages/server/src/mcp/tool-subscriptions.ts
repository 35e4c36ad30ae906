import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

/**
 * On protocol revision 2026-07-28 a client hears of tool-list changes only on a
 * `subscriptions/listen` stream it opened with `toolsListChanged`. This watches one connection's
 * inbound messages and says whether such a stream is open, so a modern client that never opens
 * one gets the stable fallback tools (list_page_tools, call_page_tool) by itself: without them it
 * would never see the page tools that appear after its first tools/list.
 */
export class ToolSubscriptions {
  readonly #open = new Set<RequestId>();
  #modern = false;
  #lastVerdict: boolean | undefined;

  constructor(private readonly onfallbackchange: (fallback: boolean) => void) {}

  /** The SDK pinned the connection to an era (its factory said which). */
  pinned(era: 'legacy' | 'modern'): void {
    this.#modern = era === 'modern';
    this.#announce();
  }

  observe(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if (message.method === 'subscriptions/listen' && 'id' in message) {
      const filter = (message.params as { notifications?: { toolsListChanged?: unknown } } | undefined)?.notifications;
      if (filter?.toolsListChanged === true) {
        this.#open.add(message.id);
        this.#announce();
      }
    } else if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined && this.#open.delete(id)) this.#announce();
    }
  }

  /** True when the client would miss tool-list changes: modern era and no tools listen stream. */
  get needsFallback(): boolean {
    return this.#modern && this.#open.size === 0;
  }

  #announce(): void {
    const verdict = this.needsFallback;
    if (verdict === this.#lastVerdict) return;
    this.#lastVerdict = verdict;
    // After the SDK has registered the stream (it acknowledges asynchronously), so the
    // resulting list_changed reaches the stream that asked for it.
    setImmediate(() => this.onfallbackchange(verdict));
  }
}
