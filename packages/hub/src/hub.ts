import {
  CallToolResult,
  type ContentToBackground,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ErrorCode,
  type PageMethod,
  PendingRequests,
  ProtocolError,
  type Tool,
  type ToolSource,
  validate,
} from '@tabmcp/protocol';

import type { TabTransport } from './tab-transport';

export interface TabTools {
  tabId: number;
  url: string | undefined;
  source: ToolSource | undefined;
  tools: Tool[];
  updatedAt: number;
}

export interface HubOptions {
  transport: TabTransport;
  requestTimeoutMs?: number;
  now?: () => number;
  log?: (event: string, details: Record<string, unknown>) => void;
}

/**
 * The hub core of mcp-b.md: which tab offers which tools, and routing of calls to a tab with a
 * pending map. It never touches `chrome.*`: the transport is injected.
 */
export class Hub {
  readonly #transport: TabTransport;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #log: (event: string, details: Record<string, unknown>) => void;
  readonly #tabs = new Map<number, TabTools>();
  readonly #pending = new PendingRequests<unknown>();
  readonly #listeners = new Set<(tabId: number, tools: Tool[]) => void>();
  readonly #pageListeners = new Set<
    (tabId: number, method: string, params: Record<string, unknown> | undefined) => void
  >();

  constructor(options: HubOptions) {
    this.#transport = options.transport;
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? (() => {});
    this.#transport.onmessage = (tabId, message, senderUrl) => this.#onMessage(tabId, message, senderUrl);
    this.#transport.ondisconnect = (tabId) => this.#onDisconnect(tabId);
  }

  /** Called whenever a tab's tool list changes (including to empty when the tab goes away). */
  onToolsChanged(listener: (tabId: number, tools: Tool[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A page's resource and prompt notifications, relayed as they come. */
  onPageNotification(
    listener: (tabId: number, method: string, params: Record<string, unknown> | undefined) => void,
  ): () => void {
    this.#pageListeners.add(listener);
    return () => this.#pageListeners.delete(listener);
  }

  toolsOf(tabId: number): Tool[] {
    return this.#tabs.get(tabId)?.tools ?? [];
  }

  hasRegistered(tabId: number): boolean {
    return this.#tabs.has(tabId);
  }

  tabs(): TabTools[] {
    return [...this.#tabs.values()];
  }

  async callTool(tabId: number, toolName: string, args: Record<string, unknown>, timeoutMs = this.#timeoutMs) {
    const tab = this.#tabs.get(tabId);
    if (!tab) {
      throw new ProtocolError(
        ErrorCode.TabNotFound,
        `Tab ${tabId} has no connected page; it may have closed or be loading`,
      );
    }
    if (!tab.tools.some((tool) => tool.name === toolName)) {
      const names = tab.tools.map((tool) => tool.name).join(', ') || 'none';
      throw new ProtocolError(ErrorCode.ToolNotFound, `Tab ${tabId} has no tool "${toolName}". Its tools: ${names}`);
    }
    const id = this.#pending.nextId('call-');
    const answer = this.#pending.wait(id, tabId, timeoutMs, () => `Tool "${toolName}" in tab ${tabId}`);
    this.#log('call', { tabId, toolName });
    this.#transport.send(tabId, { jsonrpc: '2.0', id, method: 'browser/executeTool', params: { toolName, args } });
    const payload = await answer;
    const checked = validate(CallToolResult, payload, `result of ${toolName}`);
    if (!checked.ok) throw checked.error;
    return checked.value;
  }

  /** Relays a resources/prompts request to a tab's page; the caller checks the result's shape. */
  async pageRequest(
    tabId: number,
    method: PageMethod,
    params: Record<string, unknown> | undefined,
    timeoutMs = this.#timeoutMs,
  ) {
    if (!this.#tabs.has(tabId)) {
      throw new ProtocolError(
        ErrorCode.TabNotFound,
        `Tab ${tabId} has no connected page; it may have closed or be loading`,
      );
    }
    const id = this.#pending.nextId('page-');
    const answer = this.#pending.wait(id, tabId, timeoutMs, () => `${method} in tab ${tabId}`);
    this.#transport.send(tabId, { jsonrpc: '2.0', id, method: 'browser/pageRequest', params: { method, params } });
    return answer;
  }

  /** The tab went away (closed, navigated, crashed): forget its tools and answer its calls. */
  removeTab(tabId: number, reason: string): void {
    this.#pending.rejectGroup(tabId, () => new ProtocolError(ErrorCode.TabNotFound, reason));
    if (this.#tabs.delete(tabId)) this.#emit(tabId, []);
  }

  #onMessage(tabId: number, message: ContentToBackground, senderUrl: string | undefined): void {
    if ('method' in message && message.method === 'browser/pageNotification') {
      for (const listener of this.#pageListeners) listener(tabId, message.params.method, message.params.params);
      return;
    }
    if ('method' in message) {
      const tools = dedupeByName(message.params.tools);
      const previous = this.#tabs.get(tabId);
      const url = message.method === 'browser/registerTools' ? (senderUrl ?? message.params.tabUrl) : previous?.url;
      const source = message.params.source ?? previous?.source;
      this.#tabs.set(tabId, { tabId, url, source, tools, updatedAt: this.#now() });
      this.#log(message.method === 'browser/registerTools' ? 'register' : 'update', {
        tabId,
        url,
        count: tools.length,
      });
      if (!previous || !sameTools(previous.tools, tools)) this.#emit(tabId, tools);
      return;
    }
    const id = String(message.id);
    if (message.result.success) this.#pending.resolve(id, message.result.payload);
    else this.#pending.reject(id, new ProtocolError(ErrorCode.InternalError, message.result.payload));
  }

  #onDisconnect(tabId: number): void {
    this.removeTab(tabId, `The page in tab ${tabId} went away (closed, reloaded or navigated) before answering`);
  }

  #emit(tabId: number, tools: Tool[]): void {
    for (const listener of this.#listeners) listener(tabId, tools);
  }
}

/** A page that registers the same name twice keeps the last definition, so names stay unique per tab. */
function dedupeByName(tools: Tool[]): Tool[] {
  return [...new Map(tools.map((tool) => [tool.name, tool])).values()];
}

function sameTools(a: Tool[], b: Tool[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
