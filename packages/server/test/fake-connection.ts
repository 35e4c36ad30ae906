import {
  type CallToolResult,
  ErrorCode,
  ListenerSet,
  ProtocolError,
  type ServerRequest,
  type TabInfo,
  type Tool,
} from '@tabmcp/protocol';
import type { BrowserConnection, BrowserEvent, LinkEvents } from '../src/core/browser-connection';

/** An in-memory browser for the session core: tabs with tools, and calls that echo their arguments. */
export class FakeBrowser implements BrowserConnection {
  isUp = true;
  tabs = new Map<number, TabInfo & { tools: Tool[] }>();
  calls: Array<{ tabId: number; toolName: string; args: Record<string, unknown> }> = [];
  nextId = 100;
  readonly #listeners = new ListenerSet<LinkEvents>();

  on<K extends keyof LinkEvents>(type: K, listener: LinkEvents[K]): () => void {
    return this.#listeners.on(type, listener);
  }

  async waitUntilUp(): Promise<boolean> {
    return this.isUp;
  }

  async connect() {
    return { browser: { name: 'Chromium', version: '156.0' }, tabs: [...this.tabs.values()] };
  }

  async openTab(url: string, focus: boolean) {
    const tab = { id: this.nextId++, title: 'Loading...', url, tools: toolsFor(url) };
    this.tabs.set(tab.id, tab);
    // As Chromium does: chrome.tabs.onCreated reaches tabmcp before the openTab answer, a turn earlier.
    this.emit({ type: 'tabCreated', tab });
    await new Promise((turn) => setImmediate(turn));
    return { tab, focused: focus, toolsReady: true };
  }

  /** Set to make focusTab fail for a tab the browser has, as a busy or closing window does. */
  focusFailure: ProtocolError | undefined;

  async focusTab(tabId: number) {
    const tab = this.tabs.get(tabId);
    if (!tab) throw new ProtocolError(ErrorCode.TabNotFound, `No tab ${tabId}`);
    if (this.focusFailure) throw this.focusFailure;
    return { tab };
  }

  async closeTab(tabId: number) {
    this.tabs.delete(tabId);
    this.emit({ type: 'tabClosed', tabId });
    await new Promise((turn) => setImmediate(turn));
    return { closed: true as const, tabId };
  }

  async callTool(tabId: number, toolName: string, args: Record<string, unknown>): Promise<CallToolResult> {
    this.calls.push({ tabId, toolName, args });
    return { content: [{ type: 'text', text: JSON.stringify({ tabId, toolName, args }) }] };
  }

  async pageRequest(tabId: number, method: string) {
    return { tabId, method };
  }

  /** The browser side changes something on its own. */
  emit(event: BrowserEvent): void {
    this.#listeners.emit('event', event);
  }

  drop(): void {
    this.isUp = false;
    this.#listeners.emit('down', 'test drop');
  }

  /** The link comes (back) up. */
  up(): void {
    this.isUp = true;
    this.#listeners.emit('up');
  }
}

/** A browser whose hub answers the `all` view's requests: its tools, and the calls made to them. */
export class HubBrowser extends FakeBrowser {
  hubTools: Tool[] = [];
  hubCalls: Array<{ name: string; args: unknown }> = [];
  async requestValue(message: ServerRequest): Promise<unknown> {
    if (message.type === 'listHubTools') {
      return {
        tools: this.hubTools,
        capabilities: { multiTabSupport: true, cacheSupported: true, elicitation: false },
        revision: 0,
      };
    }
    if (message.type === 'callHubTool') {
      this.hubCalls.push({ name: message.name, args: message.args });
      return { content: [{ type: 'text', text: `hub ran ${message.name}` }] };
    }
    throw new Error(`unexpected ${message.type}`);
  }
}

function toolsFor(url: string): Tool[] {
  if (!url.includes('shop')) return [];
  return [
    {
      name: 'add_to_cart',
      description: 'Add a product',
      inputSchema: { type: 'object', properties: { productId: { type: 'string' } }, required: ['productId'] },
    },
    { name: 'list_tabs', description: 'A page tool that collides with a core tool', inputSchema: { type: 'object' } },
    { name: 'weird name!', inputSchema: { type: 'object' } },
  ];
}
