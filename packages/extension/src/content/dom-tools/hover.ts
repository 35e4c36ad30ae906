/**
 * Controls that appear only while the pointer is over their row (a todo's "×", a card's actions):
 * hidden now, but a page's own CSS shows them on `:hover`. A rule such as
 * `.todo-list li:hover .destroy { display: block }` reveals whatever matches `.todo-list li .destroy`.
 */
const MAX_RULES = 300;
const REVEALING = /display|visibility|opacity/;

export class HoverRules {
  readonly #selectors: string[];

  constructor(doc: Document) {
    this.#selectors = collect(doc);
  }

  /** True when `hidden` (an element that is not shown now) would be shown on hover. */
  reveals(hidden: Element): boolean {
    if (this.#selectors.length === 0) return false;
    return this.#selectors.some((selector) => {
      try {
        return hidden.matches(selector);
      } catch {
        return false;
      }
    });
  }
}

/** The outermost hidden box around an element (itself when its parent shows), whose CSS hover rule would reveal it. */
export function hiddenRoot(element: Element, shown: (element: Element) => boolean): Element {
  let current = element;
  while (current.parentElement && !shown(current.parentElement)) current = current.parentElement;
  return current;
}

function collect(doc: Document): string[] {
  const selectors: string[] = [];
  const visit = (rules: CSSRuleList) => {
    for (const rule of rules) {
      if (selectors.length >= MAX_RULES) return;
      if (rule instanceof CSSStyleRule) {
        if (!rule.selectorText.includes(':hover') || !REVEALING.test(rule.style.cssText)) continue;
        if (rule.style.display === 'none' || rule.style.visibility === 'hidden') continue;
        for (const part of rule.selectorText.split(',')) {
          if (!part.includes(':hover')) continue;
          const base = part.replace(/:hover/g, '').trim();
          // The hovered element itself is what gets revealed only when something after :hover names it.
          if (base && /:hover\S*\s+\S/.test(part.trim())) selectors.push(base);
        }
      } else if ('cssRules' in rule) {
        visit((rule as CSSGroupingRule).cssRules);
      }
    }
  };
  for (const sheet of doc.styleSheets) {
    try {
      visit(sheet.cssRules);
    } catch {
      // A cross-origin style sheet cannot be read; its hover rules stay unknown.
    }
  }
  return selectors;
}
