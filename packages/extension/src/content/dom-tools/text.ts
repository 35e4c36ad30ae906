/** Small text helpers shared by the DOM-derived tools. Page text is untrusted and unbounded: cap it. */

export function clean(text: string | null | undefined, max = 80): string {
  const collapsed = (text ?? '').replace(/\s+/g, ' ').trim();
  return collapsed.length > max ? `${collapsed.slice(0, max - 1)}…` : collapsed;
}

/** `"Search flights!"` → `search_flights`; empty when nothing usable is left. */
export function slug(text: string, max = 48): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max)
    .replace(/_+$/, '');
}

/** Hands out names once: a second `search` becomes `search_2`. */
export class NameRegistry {
  readonly #taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.#taken.add(name);
  }

  claim(base: string): string {
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}_${n}`;
    this.#taken.add(name);
    return name;
  }
}

export function isVisible(element: Element): boolean {
  if (element instanceof HTMLElement && element.hidden) return false;
  if (element.closest('[aria-hidden="true"],[inert]')) return false;
  if (typeof element.checkVisibility === 'function') {
    return element.checkVisibility({ visibilityProperty: true, opacityProperty: false });
  }
  return element.getClientRects().length > 0;
}

/** The accessible-ish name of a control or button: label, aria, title, text, placeholder. */
export function labelOf(element: Element): string {
  const aria = element.getAttribute('aria-label');
  if (aria?.trim()) return clean(aria);
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ');
    if (text.trim()) return clean(text);
  }
  if (
    element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLTextAreaElement
  ) {
    const label = element.labels?.[0];
    if (label) {
      // A label that wraps its control would repeat the control's own text (a select's options).
      const copy = label.cloneNode(true) as HTMLElement;
      for (const nested of copy.querySelectorAll('select,textarea,input')) nested.remove();
      if (copy.textContent?.trim()) return clean(copy.textContent);
    }
  }
  if (element instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(element.type)) {
    return clean(element.value);
  }
  const text = element instanceof HTMLElement ? element.innerText || element.textContent : element.textContent;
  if (text?.trim() && !(element instanceof HTMLInputElement)) return clean(text);
  const title = element.getAttribute('title');
  if (title?.trim()) return clean(title);
  const placeholder = element.getAttribute('placeholder');
  if (placeholder?.trim()) return clean(placeholder);
  return '';
}

/** A link as short as the page itself would write it: `#part` on this page, a path on this origin. */
export function shortHref(anchor: HTMLAnchorElement): string {
  const href = anchor.href;
  if (!href || href.startsWith('javascript:')) return '';
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  const here = anchor.ownerDocument.location;
  if (url.origin !== here.origin) return href;
  if (url.pathname === here.pathname && url.search === here.search) return url.hash || url.pathname;
  return `${url.pathname}${url.search}${url.hash}`;
}
