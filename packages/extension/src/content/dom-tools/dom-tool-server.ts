import type { CallToolResult, Tool } from '@tabmcp/protocol';
import { documentTag } from '../document-tag';
import { actTool } from './act';
import { buttonTools, linkTool } from './actions';
import { recordChanges, wasTicking } from './change-history';
import { choiceTools } from './choices';
import { type Collection, collectionTools, findCollections } from './collections';
import { contentTool } from './content';
import { type DomTool, errorResult, jsonResult, markedNavigating, type ToolContext } from './dom-tool';
import { describeElement } from './elements';
import { fieldTools } from './fields';
import { formGetsTool, formTools } from './forms';
import { Handles } from './handles';
import { HoverRules } from './hover';
import { actAndObserve } from './settle';
import { NameRegistry } from './text';

const MAX_FORMS = 20;
const READING_TOOLS = ['get_page_content', 'open_link'] as const;

/** One set of handles per document: every server of this page hands out the same ones. */
let documentHandles: Handles | undefined;
function handlesOfThisDocument(): Handles {
  documentHandles ??= new Handles(describeElement, documentTag);
  return documentHandles;
}

/**
 * Tools for a page (browser-mcp-server.md, "Dynamic Page Tools"), derived from what a person sees:
 * its forms, text fields, repeated items, buttons, links and text (docs/dom-tools.md). It answers
 * the same two MCP requests a page's own server would (tools/list, tools/call), so the tab's Port
 * relays it like any other source. In `reading` mode, beside a page's own tools, it offers only
 * get_page_content and open_link, renamed `tabmcp_…` when the page already uses the name.
 */
export class DomToolServer {
  readonly #doc: Document;
  readonly #reading: boolean;
  readonly #reserved: string[];
  readonly #context: ToolContext;
  #hover: HoverRules;
  #tools: DomTool[] = [];
  #collections: Array<{ tool: string; collection: Collection }> = [];
  #signature = '';
  /** Publishes a changed tool list; set by observe(). */
  #announce: (() => Promise<void>) | undefined;

  constructor(doc: Document, options: { reading?: boolean; reserved?: string[] } = {}) {
    this.#doc = doc;
    this.#reading = options.reading ?? false;
    this.#reserved = options.reserved ?? [];
    this.#hover = new HoverRules(doc);
    recordChanges(doc);
    const server = this;
    this.#context = {
      handles: handlesOfThisDocument(),
      get hover() {
        return server.#hover;
      },
      perform: (done, action, options) => this.#perform(done, action, options),
    };
    this.refresh();
  }

  get tools(): Tool[] {
    return this.#tools.map((entry) => entry.tool);
  }

  /** Derives the tools again; true when the list an agent sees changed. */
  refresh(): boolean {
    this.#hover = new HoverRules(this.#doc);
    this.#tools = this.#reading ? this.#readingTools() : this.#allTools();
    const signature = JSON.stringify(this.tools);
    const changed = signature !== this.#signature;
    this.#signature = signature;
    return changed;
  }

  #readingTools(): DomTool[] {
    const taken = new Set(this.#reserved);
    const nameFor = (name: string) => (taken.has(name) ? `tabmcp_${name}` : name);
    return [
      contentTool(nameFor('get_page_content'), this.#context),
      linkTool(nameFor('open_link'), this.#doc, this.#context),
    ];
  }

  #allTools(): DomTool[] {
    const doc = this.#doc;
    const context = this.#context;
    const names = new NameRegistry([...READING_TOOLS, 'act']);
    const forms = formTools(doc, names, context).slice(0, MAX_FORMS);
    const toolForms = new Set([...doc.forms].filter((form) => formGetsTool(form)));
    const inToolForm = (element: Element) => {
      const form = (element as HTMLInputElement).form ?? element.closest('form');
      return form !== null && toolForms.has(form);
    };
    const collections = findCollections(doc, context.hover, inToolForm);
    const items = new Set(collections.flatMap((collection) => collection.items()));
    const inItem = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement) if (items.has(node)) return true;
      return false;
    };
    const listTools = collectionTools(collections, names, context);
    this.#collections = listTools.map((tool, index) => ({
      tool: tool.tool.name,
      collection: collections[index] as Collection,
    }));
    return [
      ...forms,
      ...fieldTools(doc, names, context, inItem),
      ...choiceTools(doc, names, context, (element) => inToolForm(element) || inItem(element)),
      ...listTools,
      ...buttonTools(doc, names, context, (element) => inToolForm(element) || inItem(element)),
      contentTool('get_page_content', context),
      linkTool('open_link', doc, context),
      actTool('act', context),
    ];
  }

  async request(method: string, params?: unknown): Promise<unknown> {
    if (method === 'tools/list') return { tools: this.tools };
    if (method !== 'tools/call')
      throw new Error(`This page has no MCP server; DOM-derived tools answer tools only (${method})`);
    const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
    return this.call(String(name), args ?? {});
  }

  has(name: string): boolean {
    return this.#tools.some((entry) => entry.tool.name === name);
  }

  async call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
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
    // The schemas leave out additionalProperties to keep the list small: unknown names are refused here.
    const known = Object.keys((entry.tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    const unknown = Object.keys(args).filter((key) => !known.includes(key));
    if (unknown.length > 0) {
      return errorResult(
        `${name} has no argument ${unknown.map((key) => `"${key}"`).join(', ')}; it takes: ${known.join(', ') || 'none'}.`,
      );
    }
    try {
      return await entry.run(args);
    } catch (error) {
      return errorResult(`${name} failed on the page: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #perform(
    done: string,
    action: () => void | Promise<void>,
    options: { extra?: Record<string, unknown>; keepWatching?: () => boolean } = {},
  ): Promise<CallToolResult> {
    const toolsBefore = this.tools.map((tool) => tool.name);
    const countsBefore = this.#counts();
    const observed = await actAndObserve(action, this.#context, options.keepWatching);
    const result: Record<string, unknown> = { done, ...options.extra };
    if (observed.navigating) return markedNavigating(jsonResult({ ...result, navigating: true }));
    if (observed.changes) result.changes = observed.changes;
    if (observed.removed) result.removed = observed.removed;
    if (observed.messages.length) result.messages = observed.messages;
    if (observed.url) result.url = observed.url;
    if (observed.title !== undefined) result.title = observed.title;
    // Published before the result is answered: the agent's next call may use a tool this action made.
    if (this.refresh()) await this.#announce?.();
    const countsAfter = this.#counts();
    const counts = Object.fromEntries(
      [...new Set([...countsBefore.keys(), ...countsAfter.keys()])]
        .filter((key) => countsBefore.get(key) !== countsAfter.get(key))
        .map((key) => [key, `${countsBefore.get(key) ?? 0} → ${countsAfter.get(key) ?? 0}`]),
    );
    if (Object.keys(counts).length) result.counts = counts;
    const toolsAfter = this.tools.map((tool) => tool.name);
    const added = toolsAfter.filter((name) => !toolsBefore.includes(name));
    const removed = toolsBefore.filter((name) => !toolsAfter.includes(name));
    if (added.length || removed.length)
      result.tools = { ...(added.length ? { added } : {}), ...(removed.length ? { removed } : {}) };
    return jsonResult(result);
  }

  #counts(): Map<string, number> {
    return new Map(
      this.#collections
        .filter(({ collection }) => collection.container.isConnected)
        .map(({ tool, collection }) => [tool.replace(/_item$/, ''), collection.items().length]),
    );
  }

  /**
   * Re-derives the tools after the page changes, at most once per `debounceMs`, and publishes real
   * changes with `pageChanged` (rate-limited per tab by the caller); right after an action of ours,
   * before its result is answered, with `announce` at once.
   */
  observe(
    debounceMs: number,
    announce: () => Promise<void>,
    pageChanged: () => void = () => void announce(),
  ): () => void {
    this.#announce = announce;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new MutationObserver((records) => {
      if (timer) return;
      // A part that ticks on its own (a clock, a countdown) changes no tool: not derived again at each tick.
      const now = performance.now();
      if (records.every((record) => record.type !== 'attributes' && wasTicking(record.target, now))) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (this.refresh()) pageChanged();
      }, debounceMs);
    });
    observer.observe(this.#doc.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: [
        'disabled',
        'hidden',
        'aria-hidden',
        'name',
        'required',
        'aria-label',
        'toolname',
        'open',
        'class',
        'style',
        'role',
      ],
    });
    return () => {
      this.#announce = undefined;
      observer.disconnect();
      clearTimeout(timer);
    };
  }
}
