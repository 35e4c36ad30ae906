import type { TabTransport } from '@tabmcp/hub';
import type { BackgroundToContent, CallToolResult, ContentToBackground, Tool } from '@tabmcp/protocol';

type PageHandler = (
  toolName: string,
  args: Record<string, unknown>,
) => CallToolResult | Promise<CallToolResult> | 'hang';

/**
 * An in-memory Tab-Hub transport (docs/requirements.md "Testing: mock transports"): tabs connect, register,
 * update and disconnect; each tab's page answers executeTool through a handler.
 */
export class MemoryTransport implements TabTransport {
  onmessage: TabTransport['onmessage'];
  ondisconnect: TabTransport['ondisconnect'];
  readonly sent: Array<{ tabId: number; message: BackgroundToContent }> = [];
  readonly #ports = new Map<number, { url: string; page: PageHandler }>();

  send(tabId: number, message: BackgroundToContent): void {
    const port = this.#ports.get(tabId);
    if (!port) throw new Error(`Tab ${tabId} has no connected content script`);
    this.sent.push({ tabId, message });
    if (message.method !== 'browser/executeTool') return;
    const { toolName, args } = message.params;
    void Promise.resolve()
      .then(() => port.page(toolName, args))
      .then(
        (payload) => {
          if (payload === 'hang' || !this.#ports.has(tabId)) return;
          this.#deliver(tabId, { jsonrpc: '2.0', id: message.id, result: { success: true, payload } });
        },
        (error: unknown) =>
          this.#deliver(tabId, {
            jsonrpc: '2.0',
            id: message.id,
            result: { success: false, payload: String(error) },
          }),
      );
  }

  /** A content script connects and registers (docs/requirements.md "Initialization"). */
  connect(tabId: number, url: string, tools: Tool[], page: PageHandler = echo(tabId)): void {
    this.#ports.set(tabId, { url, page });
    this.#deliver(tabId, { jsonrpc: '2.0', method: 'browser/registerTools', params: { tools, tabUrl: url } });
  }

  update(tabId: number, tools: Tool[]): void {
    this.#deliver(tabId, { jsonrpc: '2.0', method: 'browser/updateTools', params: { tools } });
  }

  disconnect(tabId: number): void {
    this.#ports.delete(tabId);
    this.ondisconnect?.(tabId);
  }

  calls(tabId?: number): Array<{ tabId: number; toolName: string }> {
    return this.sent.flatMap(({ tabId: to, message }) =>
      message.method === 'browser/executeTool' && (tabId === undefined || to === tabId)
        ? [{ tabId: to, toolName: message.params.toolName }]
        : [],
    );
  }

  #deliver(tabId: number, message: ContentToBackground): void {
    this.onmessage?.(tabId, message, this.#ports.get(tabId)?.url);
  }
}

function echo(tabId: number): PageHandler {
  return (toolName, args) => ({
    content: [{ type: 'text', text: `${toolName} in tab ${tabId}` }],
    structuredContent: { tabId, toolName, args },
  });
}

export function tool(name: string, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    ...extra,
  };
}
