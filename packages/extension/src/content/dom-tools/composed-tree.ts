/**
 * The page as it is rendered, not only its light DOM: an open shadow root stands in for its host's
 * children, a slot for the nodes assigned to it (else its fallback content), a same-origin iframe
 * for its document's body. Every derived tool, the page read, hover rules and observation walk
 * this one tree (docs/dom-tools.md, "Shadow DOM and iframes").
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
  const shadow = element.shadowRoot;
  if (shadow) return expandSlots(shadow.childNodes);
  if (element.localName === 'slot') return (element as HTMLSlotElement).assignedNodes({ flatten: true });
  const frame = frameDocument(element);
  if (frame) return frame.body ? [frame.body] : [];
  return hasSlotChild(element) ? expandSlots(element.childNodes) : element.childNodes;
}

/** The child elements a person sees under `element`: slots give way to what they show. */
export function composedChildren(element: Element): Element[] {
  const out: Element[] = [];
  for (const node of Array.from(composedChildNodes(element)))
    if (node.nodeType === ELEMENT_NODE) out.push(node as Element);
  return out;
}

function hasSlotChild(element: Element): boolean {
  for (const child of element.children) if (child.localName === 'slot') return true;
  return false;
}

function expandSlots(nodes: NodeListOf<ChildNode> | ArrayLike<Node>): Node[] {
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

/** Every element under `root` (itself included when it is an element), in render order. */
function walk(root: Node, visit: (element: Element) => void, scope?: (root: DocumentFragment | Document) => void) {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.nodeType === ELEMENT_NODE) {
      const element = node as Element;
      visit(element);
      if (scope) {
        if (element.shadowRoot) scope(element.shadowRoot);
        const frame = frameDocument(element);
        if (frame) scope(frame);
      }
    }
    const children = node.nodeType === DOCUMENT_NODE ? [(node as Document).documentElement] : composedChildNodes(node);
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child && child.nodeType === ELEMENT_NODE) stack.push(child);
    }
  }
}

/** One walk of a document's composed tree: its elements in render order and its roots (shadow roots, frames). */
class Snapshot {
  readonly elements: Element[] = [];
  readonly roots: Array<Document | ShadowRoot> = [];
  /** No shadow root and no frame: the light DOM is the whole tree, and native queries are exact. */
  readonly flat: boolean;

  constructor(doc: Document) {
    this.roots.push(doc);
    walk(
      doc,
      (element) => this.elements.push(element),
      (root) => this.roots.push(root as Document | ShadowRoot),
    );
    this.flat = this.roots.length === 1;
  }
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
    return snapshot.elements.filter((element) => element.matches(selector)) as E[];
  }
  if (current?.snapshot.flat && current.doc === root.ownerDocument) return [...root.querySelectorAll<E>(selector)];
  const found: E[] = [];
  walk(root, (element) => {
    if (element !== root && element.matches(selector)) found.push(element as E);
  });
  return found;
}

export function composedQuery<E extends Element = Element>(root: Element, selector: string): E | undefined {
  return composedQueryAll<E>(root, selector)[0];
}

/** The document and every open shadow root and same-origin frame document in it. */
export function composedRoots(doc: Document): Array<Document | ShadowRoot> {
  return snapshotOf(doc).roots;
}

/** `getElementById` in the tree the element lives in (its shadow root), then in its document. */
export function elementById(element: Element, id: string): Element | null {
  const root = element.getRootNode() as Document | ShadowRoot;
  return root.getElementById?.(id) ?? element.ownerDocument.getElementById(id);
}
