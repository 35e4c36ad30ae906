import {
  type CallToolResult,
  DESCRIBE_CALL,
  type DescribedCall,
  READING_TOOLS,
  type Tool,
  takeDocumentArgument,
} from '@tabmcp/protocol';
import { factsOf } from '../action-facts';
import { documentTag } from '../document-tag';
import { actTool } from './act';
import { buttonTools, linkTool } from './actions';
import { recordChanges, recordChangesIn, wasTicking } from './change-history';
import { choiceTools } from './choices';
import { type Collection, collectionTools, findCollections, itemSignature } from './collections';
import { composedParent, composedQueryAll, composedRoots, withComposedSnapshot } from './composed-tree';
import { contentTool } from './content';
import {
  type DomTool,
  errorResult,
  jsonResult,
  markedNavigating,
  markedPageText,
  type PerformOptions,
  type ToolContext,
} from './dom-tool';
import { describeElement } from './elements';
import { fieldTools } from './fields';
import { formGetsTool, formTools } from './forms';
import { askWhileLoading, otherOriginFrames, toolsChange, withToolsChange } from './frame-answers';
import { describeInFrame, onFrameChanged } from './frame-link';
import { FrameTools } from './frame-tools';
import { Handles } from './handles';
import { HoverRules } from './hover';
import { chromeControl, toolChrome } from './main-content';
import { watchCaption } from './readback';
import { scrollTool } from './scroll';
import { actAndObserve } from './settle';
import { NameRegistry, pageText } from './text';

const MAX_FORMS = 20;
/** The changes that may change the tools: also what a load's readiness watches (content/dom-quiet.ts). */
export const OBSERVED: MutationObserverInit = {
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
    'aria-expanded',
    'aria-sort',
    'aria-selected',
  ],
};

/**
 * One action at a time in this document (the tab's page): an action watches the page until it is
 * quiet, so two at once would each report the other's changes. Every server of the page shares it.
 */
let actionQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const turn = actionQueue.then(run, run);
  actionQueue = turn.catch(() => {});
  return turn;
}

/**
 * One set of handles per document: every server of this page hands out the same ones. In a frame of
 * another site they start with the frame's handle in its parent (`k512.`), given by the first request.
 */
let documentHandles: Handles | undefined;
function handlesOfThisDocument(prefix = ''): Handles {
  documentHandles ??= new Handles(describeElement, documentTag, prefix);
  return documentHandles;
}

/**
 * Tools for a page (docs/requirements.md, "Dynamic Page Tools"), derived from what a person sees:
 * its forms, text fields, repeated items, buttons, links and text (docs/dom-tools.md). It answers
 * the same two MCP requests a page's own server would (tools/list, tools/call), so the tab's Port
 * relays it like any other source. In `reading` mode, beside a page's own tools, it offers only
 * get_page_content and open_link, renamed `tabmcp_…` when the page already uses the name.
 */
export class DomToolServer {
  readonly #doc: Document;
  readonly #reading: boolean;
  /** Serving a frame of another site for its parent (frame-service.ts): its handles' prefix. */
  readonly #frame: string | undefined;
  readonly #reserved: string[];
  readonly #context: ToolContext;
  #hover: HoverRules;
  #tools: DomTool[] = [];
  /** The page's own derivation; #tools adds its frames' tools to it. */
  #ownTools: DomTool[] = [];
  readonly #frameTools = new FrameTools();
  /** Its iframes of another origin, as of the last derivation. */
  #frames: Element[] = [];
  /** Publishes a list its frames changed after the derivation (they answer later); set by observe(). */
  #framesChanged: (() => void) | undefined;
  #collections: Array<{ tool: string; collection: Collection }> = [];
  #signature = '';
  /** The document, its open shadow roots and same-origin frame documents, as of the last derivation. */
  #roots: Array<Document | ShadowRoot> = [];
  /** Starts observing roots not observed yet; set by observe(). */
  #watchRoots: ((roots: Array<Document | ShadowRoot>) => void) | undefined;
  /** Publishes a changed tool list; set by observe(). */
  #announce: (() => Promise<void>) | undefined;
  /** When the last derivation began (performance.now()), or -Infinity if the document had not loaded then. */
  #derivedAt = Number.NEGATIVE_INFINITY;
  /** Whether a change that derives the tools again came since the last derivation (see observe()). */
  #changedSinceDerived = false;
  /** Takes the observer's records not delivered yet; set by observe(). */
  #takePendingChanges: (() => void) | undefined;

  constructor(doc: Document, options: { reading?: boolean; reserved?: string[]; frame?: string } = {}) {
    this.#doc = doc;
    this.#reading = options.reading ?? false;
    this.#frame = options.frame;
    this.#reserved = options.reserved ?? [];
    this.#hover = new HoverRules([]);
    recordChanges(doc);
    const server = this;
    this.#context = {
      handles: handlesOfThisDocument(options.frame),
      get hover() {
        return server.#hover;
      },
      perform: (done, action, options) => this.#perform(done, action, options),
    };
    this.refresh();
  }

  /** The handles, hover rules and way to act that a read of this document uses (a frame's, frame-service.ts). */
  get context(): ToolContext {
    return this.#context;
  }

  get tools(): Tool[] {
    return this.#tools.map((entry) => entry.tool);
  }

  /** Derives the tools again; true when the list an agent sees changed. Its frames' tools follow on their own. */
  refresh(): boolean {
    const changed = this.#derive();
    if (this.#asksFrames()) void this.#askFrames().then((listChanged) => listChanged && this.#framesChanged?.());
    return changed;
  }

  /** Has iframes of another origin, or had: their tools are asked for after each derivation. */
  #asksFrames(): boolean {
    return this.#frames.length > 0 || this.#frameTools.entries.length > 0;
  }

  #derive(): boolean {
    this.#changedSinceDerived = false;
    // Before its load a document's images have no size yet: such a derivation does not stand for later.
    this.#derivedAt = this.#doc.readyState === 'complete' ? performance.now() : Number.NEGATIVE_INFINITY;
    // One walk of the composed tree (shadow roots, slots, same-origin frames) serves the whole derivation.
    withComposedSnapshot(this.#doc, () => {
      this.#hover = new HoverRules(composedRoots(this.#doc));
      this.#ownTools = this.#reading ? this.#readingTools() : this.#allTools();
      this.#roots = composedRoots(this.#doc);
      this.#frames = this.#reading ? [] : otherOriginFrames(this.#doc);
    });
    recordChangesIn(this.#roots);
    this.#tools = [...this.#ownTools, ...this.#frameTools.entries];
    this.#watchRoots?.(this.#roots);
    const signature = JSON.stringify(this.tools);
    const changed = signature !== this.#signature;
    this.#signature = signature;
    return changed;
  }

  /**
   * Whether the last derivation still stands for the page as it is: it began once the document had
   * loaded and after `layoutChangedAt` (performance.now() time: an image arriving changes the layout
   * and no node), and no change this server derives again for came since (a clock's tick is none).
   * Only an observing server knows; one that does not never stands.
   */
  derivationStands(layoutChangedAt: number): boolean {
    if (!this.#takePendingChanges) return false;
    this.#takePendingChanges();
    return !this.#changedSinceDerived && this.#derivedAt > layoutChangedAt;
  }

  /** Its frames' tools, asked after the derivation; true when they changed the list. */
  async #askFrames(): Promise<boolean> {
    const taken = this.#ownTools.map((entry) => entry.tool.name);
    await this.#frameTools.update(this.#frames, this.#context.handles, taken);
    // Its entries are new objects even when the list reads the same: a call looks them up in #tools.
    this.#tools = [...this.#ownTools, ...this.#frameTools.entries];
    const signature = JSON.stringify(this.tools);
    const changed = signature !== this.#signature;
    this.#signature = signature;
    return changed;
  }

  /**
   * After an action: the tools derived again, its frames' asked and waited for (within
   * FRAME_TOOLS_WAIT_MS), so the answer's `tools.added`/`removed` hold a frame's tools under the
   * names the page lists them by; true when the list changed.
   */
  async #refreshWithFrames(): Promise<boolean> {
    const framesBefore = this.#frames;
    const changed = this.#derive();
    if (!this.#asksFrames()) return changed;
    // A frame the action brought in (Pay by card) is waited for until its script runs.
    const arrived = () => this.#frames.filter((frame) => !framesBefore.includes(frame));
    const framesChanged = await askWhileLoading(
      () => this.#askFrames(),
      () => this.#frameTools.loading(arrived()),
    );
    return changed || framesChanged;
  }

  #readingTools(): DomTool[] {
    const taken = new Set(this.#reserved);
    const nameFor = (name: string) => (taken.has(name) ? `tabmcp_${name}` : name);
    const [content, link] = READING_TOOLS;
    return [contentTool(nameFor(content), this.#context), linkTool(nameFor(link), this.#doc, this.#context)];
  }

  #allTools(): DomTool[] {
    const doc = this.#doc;
    const context = this.#context;
    const names = new NameRegistry([...READING_TOOLS, 'act']);
    // Sidebars, footers and share widgets give no tools: a reading or acting task needs none of them,
    // nor a newsletter form there (act reaches it); a search box or sign-in form stays (main-content.ts).
    const inChrome = toolChrome();
    const inChromeControl = chromeControl(inChrome);
    const forms = formTools(doc, names, context, inChromeControl).slice(0, MAX_FORMS);
    const toolForms = new Set(
      composedQueryAll<HTMLFormElement>(doc, 'form').filter((form) => !inChromeControl(form) && formGetsTool(form)),
    );
    const inToolForm = (element: Element) => {
      const form = (element as HTMLInputElement).form ?? element.closest('form');
      return form !== null && toolForms.has(form);
    };
    const collections = findCollections(doc, context.hover, (element) => inToolForm(element) || inChrome(element));
    // An item is a child of a collection's container with the collection's signature; asked without
    // judging every item's visibility (a table of 25,000 rows), since a hidden item's controls are hidden too.
    const containers = new Map(collections.map((collection) => [collection.container, collection.signature]));
    const inItem = (element: Element) => {
      for (let node: Element | null = element; node; ) {
        const parent = composedParent(node);
        const signature = parent ? containers.get(parent) : undefined;
        if (signature !== undefined && signature === itemSignature(node)) return true;
        node = parent;
      }
      return false;
    };
    const listTools = collectionTools(collections, names, context);
    this.#collections = listTools.map((tool, index) => ({
      tool: tool.tool.name,
      collection: collections[index] as Collection,
    }));
    return [
      ...forms,
      ...fieldTools(doc, names, context, (element) => inItem(element) || inChromeControl(element)),
      ...choiceTools(
        doc,
        names,
        context,
        (element) => inToolForm(element) || inItem(element) || inChromeControl(element),
      ),
      ...listTools,
      ...buttonTools(doc, names, context, (element) => inToolForm(element) || inItem(element) || inChrome(element)),
      contentTool('get_page_content', context),
      linkTool('open_link', doc, context),
      actTool('act', context),
      scrollTool('scroll', context),
    ];
  }

  async request(method: string, params?: unknown): Promise<unknown> {
    if (method === 'tools/list') return { tools: this.tools };
    if (method === DESCRIBE_CALL) return this.describe(params);
    if (method !== 'tools/call')
      throw new Error(`This page has no MCP server; DOM-derived tools answer tools only (${method})`);
    const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
    return this.call(String(name), args ?? {});
  }

  /**
   * What a call would act on, read without acting (DESCRIBE_CALL): the background asks before it
   * runs a call, to ask the person first when it matters (docs/user-guide.md, "Asking before it matters").
   */
  describe(params: unknown): DescribedCall | Promise<DescribedCall> {
    const { name, arguments: given } = (params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
    const { args } = takeDocumentArgument(given ?? {});
    // A handle in a frame of another site, or a frame's tool: that frame's script says what it acts on.
    const inFrame = name === 'act' ? this.#context.handles.inFrame(args.handle) : undefined;
    if (inFrame && !('error' in inFrame)) return describeInFrame(inFrame.frame, 'act', args);
    const frameTool = this.#frameTools.describe(name, args);
    if (frameTool) return frameTool;
    let entry = this.#tools.find((candidate) => candidate.tool.name === name);
    if (!entry?.isLive()) {
      this.refresh();
      entry = this.#tools.find((candidate) => candidate.tool.name === name);
    }
    const subject = entry?.subject?.(args);
    return { derived: true, ...(subject ? { facts: factsOf(subject) } : {}) };
  }

  has(name: string): boolean {
    return this.#tools.some((entry) => entry.tool.name === name);
  }

  call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return oneAtATime(() => this.#call(name, args));
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
    // The schemas leave out additionalProperties to keep the list small: unknown names are refused here.
    const known = Object.keys((entry.tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    const unknown = Object.keys(args).filter((key) => !known.includes(key));
    if (unknown.length > 0) {
      return errorResult(
        `${name} has no argument ${unknown.map((key) => `"${key}"`).join(', ')}; it takes: ${known.join(', ') || 'none'}.`,
      );
    }
    try {
      return this.#runsInFrame(entry, args) ? await this.#inFrame(() => entry.run(args)) : await entry.run(args);
    } catch (error) {
      return errorResult(`${name} failed on the page: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async #perform(
    done: string,
    action: () => void | Promise<void>,
    options: PerformOptions = {},
  ): Promise<CallToolResult> {
    const toolsBefore = this.tools.map((tool) => tool.name);
    const countsBefore = this.#counts();
    const caption = options.subject ? watchCaption(options.subject) : undefined;
    let observed: Awaited<ReturnType<typeof actAndObserve>>;
    try {
      observed = await actAndObserve(action, this.#context, options.keepWatching, this.#roots);
    } finally {
      caption?.stop();
    }
    if (observed.navigating) return markedNavigating(jsonResult({ done, ...options.extra?.(), navigating: true }));
    // The state is read back: an action the page ignored or undid is a failure, never "done".
    const pageChanged = Boolean(observed.changes || observed.removed || observed.url || observed.title !== undefined);
    const failure = await options.readback?.(pageChanged);
    const renamed = caption?.renamed();
    const result: Record<string, unknown> = {
      ...(failure ? { failed: `${done}, but ${failure}` } : { done }),
      ...(renamed ? { renamed } : {}),
      ...options.extra?.(),
    };
    // What the page wrote is marked as the page's (docs/security.md, "Page text").
    if (observed.changes) result.changes = markedPageText(observed.changes);
    if (observed.removed) result.removed = markedPageText(observed.removed);
    if (observed.messages.length)
      result.messages = observed.messages.map((message) => markedPageText(pageText(message)));
    if (observed.url) result.url = observed.url;
    if (observed.title !== undefined) result.title = markedPageText(observed.title);
    // Published before the result is answered: the agent's next call may use a tool this action made.
    const listChanged = await this.#refreshWithFrames();
    const tools = toolsChange(toolsBefore, this.tools);
    // A frame's own report may have updated the list meanwhile, its publishing still ahead (debounced):
    // a change the answer names is published now all the same.
    if (listChanged || tools) await this.#announce?.();
    const countsAfter = this.#counts();
    const counts = Object.fromEntries(
      [...new Set([...countsBefore.keys(), ...countsAfter.keys()])]
        .filter((key) => countsBefore.get(key) !== countsAfter.get(key))
        .map((key) => [key, `${countsBefore.get(key) ?? 0} → ${countsAfter.get(key) ?? 0}`]),
    );
    if (Object.keys(counts).length) result.counts = counts;
    if (tools) result.tools = tools;
    return jsonResult(result, failure !== undefined);
  }

  /**
   * A call that a frame's script ran (`act` on a handle in the frame, or one of the frame's tools):
   * the frame's answer said which of its tools came and went by its own names; the page lists them
   * by its names (a clash gets `_2`), so the change is said again as the page's list changed.
   */
  async #inFrame(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
    const toolsBefore = this.tools.map((tool) => tool.name);
    const result = await run();
    const listChanged = await this.#refreshWithFrames();
    const tools = toolsChange(toolsBefore, this.tools);
    // The frame's own report of the change may have updated the list first, its publishing debounced:
    // what the answer names must be listed when the agent reads it.
    if (listChanged || tools) await this.#announce?.();
    return withToolsChange(result, tools);
  }

  /** A frame's tool, or `act` on a handle of a control in a frame: the frame's script runs it. */
  #runsInFrame(entry: DomTool, args: Record<string, unknown>): boolean {
    if (this.#frameTools.entries.includes(entry)) return true;
    if (entry.tool.name !== 'act') return false;
    const inFrame = this.#context.handles.inFrame(args.handle);
    return inFrame !== undefined && !('error' in inFrame);
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
    this.#framesChanged = pageChanged;
    // A frame of another site started or changed its tools (frame-service.ts): the frames are asked anew.
    const stopFrameChanges = onFrameChanged(
      () => void this.#askFrames().then((changed) => changed && this.#framesChanged?.()),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChanges = (records: MutationRecord[]) => {
      // A part that ticks on its own (a clock, a countdown) changes no tool: not derived again at each tick.
      const now = performance.now();
      if (records.every((record) => record.type !== 'attributes' && wasTicking(record.target, now))) return;
      this.#changedSinceDerived = true;
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (this.refresh()) pageChanged();
      }, debounceMs);
    };
    const observer = new MutationObserver(onChanges);
    this.#takePendingChanges = () => onChanges(observer.takeRecords());
    // A mutation inside a shadow root or frame is not seen from the document: each root is observed
    // on its own. Roots that appear later (a component rendered by a change) are found by the
    // derivation that change causes, and observed from then on.
    const observed = new WeakSet<Node>();
    this.#watchRoots = (roots) => {
      for (const root of roots) {
        if (observed.has(root)) continue;
        observed.add(root);
        observer.observe(root, OBSERVED);
      }
    };
    this.#watchRoots(this.#roots);
    return () => {
      stopFrameChanges();
      this.#watchRoots = undefined;
      this.#takePendingChanges = undefined;
      this.#announce = undefined;
      this.#framesChanged = undefined;
      observer.disconnect();
      clearTimeout(timer);
    };
  }
}
