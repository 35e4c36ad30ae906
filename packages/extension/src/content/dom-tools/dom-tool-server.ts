import type { CallToolResult, Tool } from '@tabmcp/protocol';
import { buttonTools, linkTool } from './actions';
import { contentTool } from './content';
import { type DomTool, errorResult } from './dom-tool';
import { formTools } from './forms';
import { NameRegistry } from './text';

const MAX_FORMS = 20;

/**
 * Tools for a page that publishes none (browser-mcp-server.md, "Dynamic Page Tools"): its forms,
 * its buttons and links, and its readable content. It answers the same two MCP requests a page's
 * own server would (tools/list, tools/call), so the tab's Port relays it like any other source.
 */
export class DomToolServer {
  readonly #doc: Document;
  #tools: DomTool[] = [];
  #signature = '';

  constructor(doc: Document) {
    this.#doc = doc;
    this.refresh();
  }

  get tools(): Tool[] {
    return this.#tools.map((entry) => entry.tool);
  }

  /** Derives the tools again; true when the list an agent sees changed. */
  refresh(): boolean {
    const names = new NameRegistry();
    this.#tools = [
      ...formTools(this.#doc, names).slice(0, MAX_FORMS),
      contentTool(names),
      ...buttonTools(this.#doc, names),
      ...linkTool(this.#doc, names),
    ];
    const signature = JSON.stringify(this.tools);
    const changed = signature !== this.#signature;
    this.#signature = signature;
    return changed;
  }

  async request(method: string, params?: unknown): Promise<unknown> {
    if (method === 'tools/list') return { tools: this.tools };
    if (method !== 'tools/call')
      throw new Error(`This page has no MCP server; DOM-derived tools answer tools only (${method})`);
    const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
    return this.#call(String(name), args ?? {});
  }

  async #call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    let entry = this.#tools.find((candidate) => candidate.tool.name === name);
    // The page re-rendered since the list was made: derive again and look the name up anew.
    if (!entry?.isLive()) {
      this.refresh();
      entry = this.#tools.find((candidate) => candidate.tool.name === name);
    }
    if (!entry) {
      return errorResult(
        `The page no longer offers "${name}" (it changed); list the tools again. Now: ${this.tools.map((t) => t.name).join(', ')}`,
      );
    }
    return entry.run(args);
  }

  /** Re-derives the tools after the page changes, at most once per `debounceMs`, and reports real changes. */
  observe(debounceMs: number, onchange: () => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new MutationObserver(() => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (this.refresh()) onchange();
      }, debounceMs);
    });
    observer.observe(this.#doc.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled', 'hidden', 'aria-hidden', 'name', 'required', 'aria-label', 'toolname', 'open'],
    });
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }
}
