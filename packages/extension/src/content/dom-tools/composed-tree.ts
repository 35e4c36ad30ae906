/**
 * The page as it is rendered, not only its light DOM: an open shadow root stands in for its host's
 * children, a slot for the nodes assigned to it (else its fallback content), a same-origin iframe
 * for its document's body. Every derived tool, the page read, hover rules and observation walk
 * this one tree (docs/dom-tools.md, "Shadow DOM and frames").
 *
 * Elements of an iframe belong to another window, so `instanceof HTMLInputElement` is false for
 * them: code that may meet them asks `isTag` instead.
 */

const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const FRAGMENT_NODE = 11;

/** A tag test that holds for elements of any window (a same-origin iframe's too). */
export function isTag<K extends keyof HTMLElementTagNameMap>(
  node: Node | null | undefined,
  tag: K,
): node is HTMLElementTagNameMap[K] {
  return node?.nodeType === ELEMENT_NODE && (node as Element).localName === tag;
}

export function isElement(node: Node | null | undefined): node is Element {
  return node?.nodeType === ELEMENT_NODE;
}

/** A shadow root, by node type: a same-origin frame's belong to another window, where `instanceof ShadowRoot` is false. */
export function isShadowRoot(node: Node): node is ShadowRoot {
  return node.nodeType === FRAGMENT_NODE && 'host' in node;
}

/**
 * The shadow root that renders an element, open or closed: a closed root's content is what a person
 * sees, and the light children it does not slot are never shown (docs/dom-tools.md, "Shadow DOM and
 * frames"). Closed roots are reached through the content script's `chrome.dom` (absent in a bare page,
 * where only open roots are seen); only elements that may host a root are asked, since the call is not free.
 */
export function shadowOf(element: Element): ShadowRoot | null {
  const open = element.shadowRoot;
  if (open) return open;
  const tag = element.localName;
  if (!SHADOW_HOSTS.has(tag) && !tag.includes('-')) return null;
  const dom = typeof chrome === 'undefined' ? undefined : (chrome as { dom?: ChromeDom }).dom;
  if (!dom?.openOrClosedShadowRoot) return null;
  try {
    return dom.openOrClosedShadowRoot(element as HTMLElement);
  } catch {
    return null;
  }
}

interface ChromeDom {
  openOrClosedShadowRoot?(element: HTMLElement): ShadowRoot | null;
}

/** A same-origin iframe's document; undefined for a cross-origin one (its content stays out of reach). */
export function frameDocument(element: Element): Document | undefined {
  if (element.localName !== 'iframe' && element.localName !== 'frame') return undefined;
  try {
    return (element as HTMLIFrameElement).contentDocument ?? undefined;
  } catch {
    return undefined;
  }
}

/** The child nodes a person sees under `node`, in render order. */
export function composedChildNodes(node: Node): ArrayLike<Node> {
  if (node.nodeType !== ELEMENT_NODE) return node.childNodes;
  const element = node as Element;
  const shadow = shadowOf(element);
  if (shadow) return holdsSlot(shadow) ? expandSlots(shadow.childNodes) : shadow.childNodes;
  if (element.localName === 'slot') return (element as HTMLSlotElement).assignedNodes({ flatten: true });
  const frame = frameDocument(element);
  if (frame) return frame.body ? [frame.body] : [];
  return holdsSlot(element) ? expandSlots(element.childNodes) : element.childNodes;
}

/** The child elements a person sees under `element`: slots give way to what they show. */
export function composedChildren(element: Element): Element[] {
  const out: Element[] = [];
  for (const node of Array.from(composedChildNodes(element)))
    if (node.nodeType === ELEMENT_NODE) out.push(node as Element);
  return out;
}

/** Whether a slot is a child of `parent`: known from the walk during a derivation, else asked. */
function holdsSlot(parent: Element | ShadowRoot): boolean {
  if (current) return current.snapshot.slotParents.has(parent);
  // A native query, not a loop: a table body of 25,000 rows is asked this at every read.
  if (parent.nodeType === ELEMENT_NODE) return (parent as Element).querySelector(':scope > slot') !== null;
  for (const child of parent.children) if (child.localName === 'slot') return true;
  return false;
}

function expandSlots(nodes: ArrayLike<Node>): Node[] {
  const out: Node[] = [];
  for (const node of Array.from(nodes)) {
    if (node.nodeType === ELEMENT_NODE && (node as Element).localName === 'slot')
      out.push(...(node as HTMLSlotElement).assignedNodes({ flatten: true }));
    else out.push(node);
  }
  return out;
}

/** The parent a person sees: the slot an element shows in, a shadow root's host, an iframe's element. */
export function composedParent(node: Node): Element | null {
  const slot = (node as Element | Text).assignedSlot;
  if (slot) return slot;
  const parent = node.parentNode;
  if (!parent) return null;
  if (parent.nodeType === ELEMENT_NODE) return parent as Element;
  if (parent.nodeType === FRAGMENT_NODE) return (parent as ShadowRoot).host ?? null;
  if (parent.nodeType === DOCUMENT_NODE) {
    try {
      return (parent as Document).defaultView?.frameElement ?? null;
    } catch {
      return null;
    }
  }
  return null;
}

export function composedContains(ancestor: Element, node: Node): boolean {
  for (let current: Node | null = node; current; current = composedParent(current))
    if (current === ancestor) return true;
  return false;
}

/** `closest` across shadow, slot and iframe boundaries. */
export function composedClosest(element: Element, selector: string): Element | null {
  for (let current: Element | null = element; current; current = composedParent(current))
    if (current.matches(selector)) return current;
  return null;
}

/** What a walk reports: each element in render order, each root, each slot's parent, each subtree's end. */
interface WalkListener {
  /** true stops the walk (a search that found what it looked for). */
  visit(element: Element): boolean | undefined;
  root?(root: Document | ShadowRoot): void;
  slot?(parent: Node): void;
  /** Called once every element of `element`'s composed subtree was visited. */
  leave?(element: Element): void;
}

/** Marks, on the walk's stack, the point where an element's subtree ends. */
class Leave {
  constructor(readonly element: Element) {}
}

/**
 * Every element under `root` (itself included when it is an element), in render order: a host's
 * shadow root in place of its children, a slot's assigned nodes (else its fallback) in its place,
 * a same-origin frame's document.
 */
function walk(root: Node, listener: WalkListener) {
  const start = root.nodeType === DOCUMENT_NODE ? (root as Document).documentElement : root;
  const stack: Array<Node | Leave> = start ? [start] : [];
  const push = (nodes: ArrayLike<Node>) => {
    for (let index = nodes.length - 1; index >= 0; index--) {
      const child = nodes[index];
      if (child?.nodeType === ELEMENT_NODE) stack.push(child);
    }
  };
  while (stack.length > 0) {
    const next = stack.pop() as Node | Leave;
    if (next instanceof Leave) {
      listener.leave?.(next.element);
      continue;
    }
    const element = next as Element;
    if (element.localName === 'slot') {
      // The slot itself draws nothing: what it shows takes its place.
      if (element.parentNode) listener.slot?.(element.parentNode);
      push((element as HTMLSlotElement).assignedNodes({ flatten: true }));
      continue;
    }
    if (listener.visit(element) === true) return;
    if (listener.leave) stack.push(new Leave(element));
    const shadow = shadowOf(element);
    if (shadow) {
      listener.root?.(shadow);
      push(shadow.childNodes);
      continue;
    }
    if (element.localName === 'iframe' || element.localName === 'frame') {
      const frame = frameDocument(element);
      if (frame?.documentElement) {
        listener.root?.(frame);
        if (frame.body) stack.push(frame.body);
      }
      continue;
    }
    push(element.children);
  }
}

/** One walk of a document's composed tree: its elements in render order and its roots (shadow roots, frames). */
class Snapshot {
  readonly elements: Element[] = [];
  readonly roots: Array<Document | ShadowRoot> = [];
  readonly slotParents = new Set<Node>();
  /** No shadow root and no frame: the light DOM is the whole tree, and native queries are exact. */
  readonly flat: boolean;
  /** Each element's place in render order, and where its subtree ends (exclusive). */
  readonly #order = new Map<Element, number>();
  readonly #end = new Map<Element, number>();
  readonly #queries = new Map<string, Element[]>();

  constructor(doc: Document) {
    this.roots.push(doc);
    // Most pages have no shadow root, frame or slot: their tree is the light DOM, in document order,
    // which one native query lists far faster than a walk (a page of 100,000 elements).
    const all = Array.from(doc.querySelectorAll('*'));
    if (isFlat(all)) {
      this.elements = all;
      this.flat = true;
      return;
    }
    walk(doc, {
      visit: (element) => {
        this.#order.set(element, this.elements.length);
        this.elements.push(element);
        return undefined;
      },
      root: (root) => this.roots.push(root),
      slot: (parent) => this.slotParents.add(parent),
      leave: (element) => this.#end.set(element, this.elements.length),
    });
    this.flat = this.roots.length === 1;
  }

  /**
   * The matches of `selector` in render order: each root's native query, less what no slot shows
   * (a host's unassigned light children), sorted by the walk's order. Asked once per selector.
   */
  query(selector: string): Element[] {
    const known = this.#queries.get(selector);
    if (known) return known;
    const order = this.#order;
    const found: Element[] = [];
    for (const root of this.roots)
      for (const element of root.querySelectorAll(selector)) if (order.has(element)) found.push(element);
    found.sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
    this.#queries.set(selector, found);
    return found;
  }

  /** The matches under `element` (not itself), or undefined when the element is not in this walk. */
  queryUnder(element: Element, selector: string): Element[] | undefined {
    const start = this.#order.get(element);
    const end = this.#end.get(element);
    if (start === undefined || end === undefined) return undefined;
    const all = this.query(selector);
    const order = this.#order;
    // The subtree is one run of the render order: find its first match by bisection.
    let low = 0;
    let high = all.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((order.get(all[middle] as Element) as number) <= start) low = middle + 1;
      else high = middle;
    }
    const found: Element[] = [];
    for (let index = low; index < all.length; index++) {
      const candidate = all[index] as Element;
      if ((order.get(candidate) as number) >= end) break;
      found.push(candidate);
    }
    return found;
  }
}

/** The only elements a shadow root can be attached to, besides custom elements (the DOM standard's list). */
const SHADOW_HOSTS = new Set([
  'article',
  'aside',
  'blockquote',
  'body',
  'div',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'nav',
  'p',
  'section',
  'span',
]);

/**
 * No element hosts a shadow root, is a frame or is a slot: the light DOM is all there is. Only
 * elements that may host a root are asked for one (a table's cells and controls cannot).
 */
function isFlat(elements: Element[]): boolean {
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as Element;
    const tag = element.localName;
    if (tag === 'iframe' || tag === 'frame' || tag === 'slot') return false;
    if (shadowOf(element)) return false;
  }
  return true;
}

let current: { doc: Document; snapshot: Snapshot } | undefined;

/**
 * Runs one derivation over a single walk of the tree: queries made meanwhile reuse it. The page
 * does not change during a synchronous pass, so the walk cannot be stale.
 */
export function withComposedSnapshot<T>(doc: Document, derive: () => T): T {
  const outer = current;
  current = { doc, snapshot: new Snapshot(doc) };
  try {
    return derive();
  } finally {
    current = outer;
  }
}

function snapshotOf(doc: Document): Snapshot {
  return current?.doc === doc ? current.snapshot : new Snapshot(doc);
}

/** `querySelectorAll` over the composed tree: shadow roots, slotted content and same-origin iframes, in render order. */
export function composedQueryAll<E extends Element = Element>(root: Document | Element, selector: string): E[] {
  if (root.nodeType === DOCUMENT_NODE) {
    const snapshot = snapshotOf(root as Document);
    if (snapshot.flat) return [...(root as Document).querySelectorAll<E>(selector)];
    return snapshot.query(selector) as E[];
  }
  if (current?.snapshot.flat && current.doc === root.ownerDocument) return [...root.querySelectorAll<E>(selector)];
  const under = current?.snapshot.queryUnder(root as Element, selector);
  if (under) return under as E[];
  const found: E[] = [];
  walk(root, {
    visit: (element) => {
      if (element !== root && element.matches(selector)) found.push(element as E);
      return undefined;
    },
  });
  return found;
}

/**
 * Whether `root` holds a match, and the first found: the light DOM's native answer when it has one
 * (a match no slot shows still counts), else a walk that stops at the first match.
 */
export function composedQuery<E extends Element = Element>(root: Element, selector: string): E | undefined {
  const light = root.querySelector<E>(selector);
  if (light) return light;
  if (current?.snapshot.flat && current.doc === root.ownerDocument) return undefined;
  const under = current?.snapshot.queryUnder(root, selector);
  if (under) return under[0] as E | undefined;
  let found: E | undefined;
  walk(root, {
    visit: (element) => {
      if (element === root || !element.matches(selector)) return undefined;
      found = element as E;
      return true;
    },
  });
  return found;
}

/** Every element a person could see in the document, in render order (the page's head included). */
export function composedElements(doc: Document): Element[] {
  return snapshotOf(doc).elements;
}

/** The document and every open shadow root and same-origin frame document in it. */
export function composedRoots(doc: Document): Array<Document | ShadowRoot> {
  return snapshotOf(doc).roots;
}

/**
 * `getElementById` in the tree the element lives in (its shadow root), then in its document, then in
 * its own shadow root (a component host labelled by its own content: Ionic's toggle).
 */
export function elementById(element: Element, id: string): Element | null {
  const root = element.getRootNode() as Document | ShadowRoot;
  return (
    root.getElementById?.(id) ??
    element.ownerDocument.getElementById(id) ??
    shadowOf(element)?.getElementById(id) ??
    null
  );
}
