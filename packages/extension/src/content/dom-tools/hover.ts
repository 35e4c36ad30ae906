import { composedParent } from './composed-tree';

/**
 * Controls that appear only while the pointer is over their row (a todo's "×", a card's actions):
 * hidden now, but a page's own CSS shows them on `:hover`. A rule such as
 * `.todo-list li:hover .destroy { display: block }` reveals whatever matches `.todo-list li .destroy`.
 * A web component's rules live in its shadow root (its `<style>` or `adoptedStyleSheets`) and apply
 * only there: `:host(:hover) .destroy` reveals `.destroy` inside that root.
 */
const MAX_RULES = 300;
const REVEALING = /display|visibility|opacity/;

export class HoverRules {
  /** Selectors by the tree whose style sheets hold them: a rule applies only in its own tree. */
  readonly #selectors = new Map<Node, string[]>();
  #count = 0;

  /** `roots`: the document and the shadow roots and frame documents in it (composed-tree.ts). */
  constructor(roots: Iterable<Document | ShadowRoot>) {
    for (const root of roots) {
      const sheets = [...root.styleSheets, ...(root.adoptedStyleSheets ?? [])];
      const found: string[] = [];
      for (const sheet of sheets) {
        try {
          this.#collect(sheet.cssRules, found);
        } catch {
          // A cross-origin style sheet cannot be read; its hover rules stay unknown.
        }
      }
      if (found.length) this.#selectors.set(root, found);
    }
  }

  /** True when `hidden` (an element that is not shown now) would be shown on hover. */
  reveals(hidden: Element): boolean {
    const selectors = this.#selectors.get(hidden.getRootNode());
    if (!selectors) return false;
    return selectors.some((selector) => {
      try {
        return hidden.matches(selector);
      } catch {
        return false;
      }
    });
  }

  #collect(rules: CSSRuleList, selectors: string[]): void {
    for (const rule of rules) {
      if (this.#count >= MAX_RULES) return;
      // Duck-typed: a frame's rules belong to another window, where `instanceof CSSStyleRule` is false.
      const style = (rule as CSSStyleRule).style;
      const selectorText = (rule as CSSStyleRule).selectorText;
      if (typeof selectorText === 'string' && style) {
        if (!selectorText.includes(':hover') || !REVEALING.test(style.cssText)) continue;
        if (style.display === 'none' || style.visibility === 'hidden') continue;
        for (const part of selectorText.split(',')) {
          if (!part.includes(':hover')) continue;
          // `:host(:hover) .x` holds for any .x of the root: the host is outside its own tree.
          const base = part
            .replace(/:hover/g, '')
            .replace(/:host(\([^)]*\))?/g, '')
            .trim();
          // The hovered element itself is what gets revealed only when something after :hover names it.
          if (base && /:hover\S*\s+\S/.test(part.trim())) {
            selectors.push(base);
            this.#count++;
          }
        }
      } else if ('cssRules' in rule) {
        this.#collect((rule as CSSGroupingRule).cssRules, selectors);
      }
    }
  }
}

/** The outermost hidden box around an element (itself when its parent shows), whose CSS hover rule would reveal it. */
export function hiddenRoot(element: Element, shown: (element: Element) => boolean): Element {
  let current = element;
  for (let parent = composedParent(current); parent && !shown(parent); parent = composedParent(current))
    current = parent;
  return current;
}
