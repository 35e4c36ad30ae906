/**
 * Elements whose pointer cursor the page sets in a `:hover` rule (`.row:hover { cursor: pointer }`):
 * Tabulator's selectable rows, sortable headers and tree toggles, many a table library's. A cursor is
 * seen only while the pointer is over the element anyway, so such a rule tells a person what
 * `cursor: pointer` tells (styled-controls.ts): they can click there. Only the outermost such element
 * counts: a pointer over an element inside it is over it too.
 */
/** The cursors that say "act here": a hand, or the move and grab cursors of what can be dragged. */
export const CURSORS = new Set(['pointer', 'move', 'grab', 'grabbing']);
/** Rules looked at per document or shadow root: a site's whole style sheet is not matched per read. */
const MAX_SELECTORS = 60;
/** Sibling combinators: hovering the element does not hover what the selector names beside it. */
const SIBLING = /[+~]/;

/** Per tree, for one synchronous run (a derivation, a read), as visibility's verdicts are: the style sheets are read once. */
let matched: WeakMap<Node, Set<Element>> | undefined;

export function pointerOnHover(element: Element): boolean {
  const root = element.getRootNode();
  if (!matched) {
    matched = new WeakMap();
    queueMicrotask(() => {
      matched = undefined;
    });
  }
  let found = matched.get(root);
  if (!found) {
    found = outermost(elementsUnder(root as Document | ShadowRoot));
    matched.set(root, found);
  }
  return found.has(element);
}

/** The elements of `root` that a `:hover` rule gives a pointer cursor, the page's root and body aside. */
function elementsUnder(root: Document | ShadowRoot): Set<Element> {
  const selectors: string[] = [];
  const view = (root as Document).defaultView ?? root.ownerDocument?.defaultView ?? null;
  for (const sheet of [...root.styleSheets, ...(root.adoptedStyleSheets ?? [])]) {
    try {
      collect(sheet.cssRules, selectors, view);
    } catch {
      // A cross-origin style sheet cannot be read; its rules stay unknown.
    }
  }
  const elements = new Set<Element>();
  for (const selector of selectors) {
    try {
      for (const element of root.querySelectorAll(selector))
        if (element.localName !== 'body' && element.localName !== 'html') elements.add(element);
    } catch {
      // A selector only style sheets take (a pseudo-element) names no element.
    }
  }
  return elements;
}

function collect(rules: CSSRuleList, selectors: string[], view: Window | null): void {
  for (const rule of rules) {
    if (selectors.length >= MAX_SELECTORS) return;
    // Duck-typed: a frame's rules belong to another window, where `instanceof CSSStyleRule` is false.
    const { style, selectorText } = rule as CSSStyleRule;
    if (typeof selectorText === 'string' && style) {
      if (!selectorText.includes(':hover') || !CURSORS.has(style.cursor)) continue;
      for (const part of selectorText.split(',')) {
        if (!part.includes(':hover') || SIBLING.test(part) || part.includes(':not(')) continue;
        // `:host(:hover) .x` and `.row:hover .x` hold whenever the pointer is over .x: strip the hovers.
        const base = part
          .replace(/:hover/g, '')
          .replace(/:host(\([^)]*\))?/g, '')
          .trim();
        if (base) selectors.push(base);
      }
    } else if ('cssRules' in rule) {
      const media = (rule as CSSMediaRule).media;
      if (media?.mediaText && view && !view.matchMedia(asForAMouse(media.mediaText)).matches) continue;
      collect((rule as CSSGroupingRule).cssRules, selectors, view);
    }
  }
}

/** A pointer feature of a media query (`(hover: hover)`, `(pointer: fine)`) and its value. */
const POINTER_FEATURE = /\((?:any-)?(hover|pointer)\s*:\s*([a-z]+)\s*\)/g;
const MOUSE: Record<string, string> = { hover: 'hover', pointer: 'fine' };

/**
 * A media query as it holds for a mouse: tabmcp points with the browser's mouse input, whatever
 * pointer the machine reports (a headless or remote browser may report none, and Tabulator puts its
 * cursors under `@media (hover: hover) and (pointer: fine)`). Other features are the browser's.
 */
function asForAMouse(query: string): string {
  return query.replace(POINTER_FEATURE, (_, feature: string, value: string) =>
    MOUSE[feature] === value ? '(min-width: 0)' : '(width < 0)',
  );
}

/** Those with no ancestor in the set: the pointer over a box's inside is over the box. */
function outermost(elements: Set<Element>): Set<Element> {
  const kept = new Set<Element>();
  for (const element of elements) {
    let ancestor = element.parentElement;
    while (ancestor && !elements.has(ancestor)) ancestor = ancestor.parentElement;
    if (!ancestor) kept.add(element);
  }
  return kept;
}
