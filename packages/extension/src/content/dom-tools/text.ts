import { clippedByAncestor, shownToAPerson, textInvisible } from './visibility';

/** Small text helpers shared by the DOM-derived tools. Page text is untrusted and unbounded: cap it. */

import { composedChildNodes, composedClosest, elementById, isElement, isTag } from './composed-tree';

/** C0/C1 controls, zero-width and bidi controls: they can hide or reorder what an agent reads. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

export function clean(text: string | null | undefined, max = 80): string {
  const collapsed = (text ?? '').replace(/\s+/g, ' ').replace(INVISIBLE, '').trim();
  return collapsed.length > max ? `${collapsed.slice(0, max - 1)}…` : collapsed;
}

/**
 * A run of page text as get_page_content writes it: no control or bidi characters, whitespace
 * collapsed (never a line of its own), and brackets escaped, so the page cannot write what reads
 * as one of our tokens (`[button "Cancel" k7]`), markers (`[page …]`) or dialogs (`[dialog]`), nor
 * begin a paging note or an action's report as we do.
 */
export function pageText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(INVISIBLE, '').replace(/[[\]]/g, '\\$&').replace(OUR_PHRASES, '\\$&');
}

/** How our paging notes and action reports begin: the page's look-alikes get a backslash. */
const OUR_PHRASES = /[({](?=characters \d|\d+ passages? matching|"(done|failed|navigating|renamed)")/g;

/**
 * `"Search flights!"` → `search_flights`. A caption with no ASCII letter still names a tool:
 * Cyrillic and Greek are transliterated (`Войти` → `voiti`), common symbols become words (`+` →
 * `plus`, `🗑` → `delete`), and anything else is written as its code points (`登录` →
 * `u767b_u5f55`): MCP clients accept only ASCII names, and the description keeps the caption.
 * Empty only when the text has no letter, digit or symbol at all.
 */
export function slug(text: string, max = 48): string {
  const lowered = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .trim();
  const words = [...lowered].map((char, index) => TRANSLITERATION[char] ?? symbolWord(char, index) ?? char).join('');
  const ascii = tidySlug(words.replace(/[^a-z0-9]+/g, '_'), max);
  if (ascii) return ascii;
  // Letters of scripts without a transliteration here (CJK, Thai, …), or pictographs: their code points.
  const points = [...lowered].filter((char) => /[\p{L}\p{N}\p{S}\p{Extended_Pictographic}]/u.test(char));
  return tidySlug(
    points
      .slice(0, 6)
      .map((char) => `u${(char.codePointAt(0) ?? 0).toString(16)}`)
      .join('_'),
    max,
  );
}

function tidySlug(text: string, max: number): string {
  return text
    .replace(/^_+|_+$/g, '')
    .slice(0, max)
    .replace(/_+$/, '');
}

function symbolWord(char: string, index: number): string | undefined {
  // A leading minus is a sign ("-1"); elsewhere a hyphen only joins words ("e-mail").
  if ((char === '-' || char === '\u2212') && index === 0) return '_minus_';
  const word = SYMBOL_WORDS[char];
  return word ? `_${word}_` : undefined;
}

const SYMBOL_WORDS: Record<string, string> = {
  '+': 'plus',
  '\u2212': 'minus',
  '&': 'and',
  '\u00d7': 'x',
  '\u2715': 'x',
  '\u2716': 'x',
  '\u2717': 'x',
  '\u2026': 'more',
  '\u22ef': 'more',
  '\u22ee': 'more',
  '\u2630': 'menu',
  '\u2713': 'ok',
  '\u2714': 'ok',
  '\u2190': 'back',
  '\u2192': 'next',
  '\u2191': 'up',
  '\u2193': 'down',
  '\u2605': 'star',
  '\u2606': 'star',
  '\u2665': 'like',
  '\u2764': 'like',
  '\u2699': 'settings',
  '\u270e': 'edit',
  '\u270f': 'edit',
  '\u{1f50d}': 'search',
  '\u{1f50e}': 'search',
  '\u{1f5d1}': 'delete',
  '\u{1f6d2}': 'cart',
  '\u{1f464}': 'account',
  '\u{1f3e0}': 'home',
  '\u{1f514}': 'notifications',
};

/** Russian, Ukrainian and Greek letters, lower case, as passports write them. */
const TRANSLITERATION: Record<string, string> = Object.fromEntries(
  [
    ...'а:a б:b в:v г:g д:d е:e ж:zh з:z и:i й:y к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f х:kh ц:ts ч:ch ш:sh щ:shch ъ: ы:y ь: э:e ю:yu я:ya і:i ї:yi є:ye ґ:g'.split(
      ' ',
    ),
    ...'α:a β:v γ:g δ:d ε:e ζ:z η:i θ:th ι:i κ:k λ:l μ:m ν:n ξ:x ο:o π:p ρ:r σ:s ς:s τ:t υ:y φ:f χ:ch ψ:ps ω:o'.split(
      ' ',
    ),
  ].map((pair) => pair.split(':') as [string, string]),
);

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

/**
 * Shown on the page, looked at alone: not under hidden, aria-hidden or inert, shown to a person
 * (visibility.ts) and not clipped away by an ancestor.
 */
export function isVisible(element: Element): boolean {
  if ((element as HTMLElement).hidden === true) return false;
  if (composedClosest(element, '[aria-hidden="true"],[inert]')) return false;
  return isShown(element) && !clippedByAncestor(element);
}

const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'svg', 'SELECT', 'TEXTAREA']);

/**
 * The text a person sees in an element: its source text (so CSS `text-transform` does not leak in),
 * without hidden parts, with a space kept between inline pieces, images by their alt text.
 */
export function visibleText(element: Element, max = 200): string {
  return textWithin(element, max, false);
}

/** The first role an element's `role` attribute names, if any. */
function explicitRole(element: Element): string | undefined {
  return element.getAttribute('role')?.trim().split(/\s+/)[0] || undefined;
}

/**
 * A container named only by its author (ARIA's roles whose name comes from the author alone): its content is its
 * items, never its name. A list a person scrolls (react-window's `role=list`) was named "Message #1 the parcel
 * left…" by its first rows.
 */
function isContainer(element: Element): boolean {
  const role = explicitRole(element);
  return role !== undefined && CONTAINER_ROLES.has(role);
}
const CONTAINER_ROLES = new Set([
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'complementary',
  'contentinfo',
  'dialog',
  'document',
  'feed',
  'figure',
  'form',
  'grid',
  'group',
  'list',
  'listbox',
  'log',
  'main',
  'menu',
  'menubar',
  'navigation',
  'note',
  'radiogroup',
  'region',
  'rowgroup',
  'search',
  'status',
  'table',
  'tablist',
  'tabpanel',
  'toolbar',
  'tree',
  'treegrid',
]);

/**
 * Roles whose content Chromium leaves out of an ancestor's name from content (checked in Chromium 156
 * against its accessibility tree): the containers but a list and an unnamed region or form, whose words it keeps,
 * and a combobox, a row and a separator. An open tree item is named "Projects", not "Projects project-1.docx …",
 * because its children sit in a group; a menu item is not named by its submenu.
 */
const NO_NAME_FROM_CONTENT = new Set([
  ...[...CONTAINER_ROLES].filter((role) => role !== 'list' && role !== 'region' && role !== 'form'),
  'combobox',
  'row',
  'separator',
]);
/** The same roles where a tag gives them (HTML-AAM). */
const NO_NAME_FROM_CONTENT_TAGS = new Set(['ARTICLE', 'ASIDE', 'DIALOG', 'FIELDSET', 'FIGURE', 'HR', 'MAIN', 'NAV']);

function givesNoNameFromContent(element: Element): boolean {
  const role = explicitRole(element);
  if (role) return NO_NAME_FROM_CONTENT.has(role);
  return NO_NAME_FROM_CONTENT_TAGS.has(element.tagName);
}

/**
 * An element's name from its content, as accname computes it and Chromium applies it: visible text, less the
 * content of containers, a part that has an `aria-label` (an icon button inside an option) by its label, a
 * drawing by its `<title>`.
 */
function nameFromContent(element: Element, max = 200): string {
  return textWithin(element, max, true, hasARole(element));
}

/**
 * A clickable box with no role of its own gets no name from Chromium; tabmcp names it by what a person reads of
 * it, so a part's `aria-label` (naive-ui's arrow, labelled "loading") is no part of that name.
 */
function hasARole(element: Element): boolean {
  const role = explicitRole(element);
  if (role) return role !== 'presentation' && role !== 'none';
  return ROLE_TAGS.has(element.tagName);
}
const ROLE_TAGS = new Set(['A', 'BUTTON', 'SUMMARY', 'TD', 'TH', 'OPTION']);

/** A part's own name where it replaces its content in an ancestor's name (accname 2C, 2D). */
function partName(node: Element): string | undefined {
  const label = node.getAttribute('aria-label')?.trim();
  if (label) return label;
  if (node.localName === 'svg') return node.querySelector(':scope > title')?.textContent?.trim() ?? '';
  return undefined;
}

function textWithin(element: Element, max: number, asName: boolean, partsByName = asName): string {
  const parts: string[] = [];
  let length = 0;
  const visit = (node: Node) => {
    if (length > max * 2) return;
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent ?? '';
      if (text.trim() && node.parentElement && textInvisible(node.parentElement)) return;
      parts.push(text);
      // Only words count toward the cap: a component's template indents its shadow root with whitespace.
      length += text.trim().length;
      return;
    }
    if (!isElement(node)) return;
    const part = asName && node !== element;
    if (part && (givesNoNameFromContent(node) || !isShown(node))) return;
    const named = part && partsByName ? partName(node) : undefined;
    if (named !== undefined) {
      parts.push(` ${named} `);
      return;
    }
    if (NOT_TEXT.has(node.tagName)) return;
    if (node !== element && !isShown(node)) return;
    if (isTag(node, 'img')) {
      if (node.alt.trim()) parts.push(` ${node.alt} `);
      return;
    }
    if (isTag(node, 'input') && ['submit', 'button', 'reset'].includes(node.type)) {
      parts.push(` ${node.value} `);
      return;
    }
    const block = node !== element && BLOCKISH.has(node.tagName);
    if (block) parts.push(' ');
    // What a person sees: a shadow root's content, slotted nodes where their slot is.
    for (const child of Array.from(composedChildNodes(node))) visit(child);
    if (block) parts.push(' ');
  };
  visit(element);
  return clean(parts.join(''), max);
}

const BLOCKISH = new Set(['P', 'DIV', 'LI', 'TD', 'TH', 'TR', 'BR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DT', 'DD']);

/** Cheaper than isVisible for a walk that already left hidden ancestors behind. */
export function isShown(element: Element): boolean {
  if (element.getAttribute('aria-hidden') === 'true') return false;
  return shownToAPerson(element);
}

const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/**
 * The accessible name of an element, close to what a screen reader announces: aria-labelledby,
 * aria-label, its <label>, its visible text (buttons, links), title, placeholder. `from` says
 * where it came from, so a reader can leave out a <label> it already shows as text.
 */
export function accessibleName(element: Element): {
  name: string;
  from: 'aria' | 'label' | 'text' | 'title' | 'row' | '';
} {
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => {
        // An id names an element of the same tree: the shadow root the element lives in.
        const target = elementById(element, id);
        // accname: a control that names itself in aria-labelledby ("rb1 r1" on rb1) gives its aria-label there.
        if (target === element) return element.getAttribute('aria-label')?.trim() || visibleText(element);
        return target ? visibleText(target) || clean(target.textContent) : '';
      })
      .join(' ');
    if (text.trim()) return { name: clean(text), from: 'aria' };
  }
  const aria = element.getAttribute('aria-label');
  if (aria?.trim()) return { name: clean(aria), from: 'aria' };
  if (FIELD_TAGS.has(element.tagName)) {
    const labels = (element as HTMLInputElement).labels;
    for (const label of labels ?? []) {
      const text = labelText(label);
      if (text) return { name: text, from: 'label' };
    }
  }
  if (isTag(element, 'input') && ['submit', 'button', 'reset'].includes(element.type)) {
    if (element.value.trim()) return { name: clean(element.value), from: 'text' };
  } else if (isTag(element, 'input') && element.type === 'image') {
    if (element.alt.trim()) return { name: clean(element.alt), from: 'text' };
  } else if (!FIELD_TAGS.has(element.tagName) && !(element as HTMLElement).isContentEditable && !isContainer(element)) {
    const text = nameFromContent(element, 80);
    if (text) return { name: text, from: 'text' };
  }
  const title = element.getAttribute('title');
  if (title?.trim()) return { name: clean(title), from: 'title' };
  const icon = isContainer(element) ? '' : iconName(element);
  if (icon) return { name: icon, from: 'text' };
  const placeholder = element.getAttribute('placeholder') ?? element.getAttribute('aria-placeholder');
  if (placeholder?.trim()) return { name: clean(placeholder), from: 'title' };
  const component = componentLabel(element);
  return component.name ? component : nameFromItsRow(element);
}

/**
 * What a person reads of a row as its caption: its visible text, less the captions of the row's other
 * controls (a todo's "×" or "Delete" button is no part of its name).
 */
function rowCaption(row: Element, control: Element): string {
  const own = visibleText(row, ROW_NAME_MAX * 2);
  let caption = ` ${own} `;
  for (const other of row.querySelectorAll('button, a[href], [role=button], [role=link], input, select, textarea')) {
    if (other === control) continue;
    const text = visibleText(other, 80);
    if (text) caption = caption.replace(` ${text} `, ' ');
  }
  return clean(caption, ROW_NAME_MAX + 1);
}

/** Row-like boxes whose text names a nameless control inside them (a todo's checkbox is its row's). */
const ROW_LIKE = 'li, tr, [role=row], [role=listitem], [role=option], [role=treeitem], [role=article]';
const CHECKABLE = /^(checkbox|radio|switch)$/;
/** How far up a nameless control looks for its row. */
const ROW_LEVELS = 3;
/** A row whose text is longer than this is a region, not a caption. */
const ROW_NAME_MAX = 80;

/**
 * A control nobody named is named by what a person reads beside it: the text of its row (the list
 * item or table row it sits in, a few levels up at most). The stock TodoMVC checkbox has no label of
 * its own; its row reads "Walk the dog", and so does the checkbox, so an agent ticks the right one.
 */
function nameFromItsRow(element: Element): { name: string; from: 'row' | '' } {
  // Only a control whose row says what it is about: a box ticks the row; a nameless button's action is unknown.
  if (!CHECKABLE.test(element.getAttribute('role') ?? (element as HTMLInputElement).type ?? ''))
    return { name: '', from: '' };
  let node = element.parentElement;
  for (let level = 0; node && level < ROW_LEVELS; level++, node = node.parentElement) {
    if (!node.matches(ROW_LIKE)) continue;
    const text = rowCaption(node, element);
    return text && text.length <= ROW_NAME_MAX ? { name: text, from: 'row' } : { name: '', from: '' };
  }
  return { name: '', from: '' };
}

/**
 * A control inside a web component that names nothing itself is named as its component is: the
 * host's `label` or `aria-label` (the API of Shoelace, Material, Ionic…), else a `<label>` around
 * the host in the page (`<label>Window seat <md-switch>`), as a screen reader hears it.
 */
function componentLabel(element: Element): { name: string; from: 'aria' | 'label' | '' } {
  const host = (element.getRootNode() as ShadowRoot).host;
  if (!host) return { name: '', from: '' };
  const own = host.getAttribute('aria-label') ?? host.getAttribute('label');
  if (own?.trim()) return { name: clean(own), from: 'aria' };
  const label = composedClosest(host, 'label');
  const text = label ? labelText(label as HTMLLabelElement) : '';
  return text ? { name: text, from: 'aria' } : { name: '', from: '' };
}

/**
 * An icon-only control's name as a screen reader finds it: a labelled icon inside, an SVG's
 * <title>, an image's alt, or text hidden visually for assistive technology.
 */
function iconName(element: Element): string {
  if (FIELD_TAGS.has(element.tagName) || (element as HTMLElement).isContentEditable) return '';
  const labelled = element.querySelector('[aria-label]')?.getAttribute('aria-label');
  if (labelled?.trim()) return clean(labelled);
  const svgTitle = element.querySelector('svg title')?.textContent;
  if (svgTitle?.trim()) return clean(svgTitle);
  const alt = element.querySelector('img[alt]')?.getAttribute('alt');
  if (alt?.trim()) return clean(alt);
  return clean(element.textContent);
}

export function labelOf(element: Element): string {
  return accessibleName(element).name;
}

/** A label's own words, without the text of the control it wraps (a select's options). */
function labelText(label: HTMLLabelElement): string {
  const parts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    else if (isElement(node) && !FIELD_TAGS.has(node.tagName) && !NOT_TEXT.has(node.tagName)) {
      // accname: a part hidden from assistive technology is no part of the name ("Name<span aria-hidden>*</span>").
      if (node !== label && node.getAttribute('aria-hidden') === 'true') return;
      const named = node === label ? undefined : node.getAttribute('aria-label')?.trim();
      if (named) parts.push(` ${named} `);
      else for (const child of Array.from(composedChildNodes(node))) visit(child);
    }
  };
  visit(label);
  return clean(parts.join(''));
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
  if (url.origin !== here.origin) return externalHref(url);
  if (url.pathname === here.pathname && url.search === here.search) return url.hash || url.pathname;
  return `${pathFrom(here.pathname, url.pathname)}${url.search}${url.hash}`;
}

/**
 * A path below the page's own folder, relative to it: on a documentation site the folder can be most
 * of every link (`/content/patterns/disclosure/examples/card.html` on a page of that folder is
 * `card.html`), and the read's first line gives the page's address to resolve it. Anything that would
 * read as another scheme or host (`a:b`, `//x`) stays whole.
 */
function pathFrom(pagePath: string, path: string): string {
  const folder = pagePath.slice(0, pagePath.lastIndexOf('/') + 1);
  if (folder.length <= 1 || !path.startsWith(folder) || path.length === folder.length) return path;
  const rest = path.slice(folder.length);
  return rest.startsWith('/') || /^[^/]*:/.test(rest) ? path : rest;
}

/**
 * Another site's address, short: its host and path, no query (share and tracking links carry
 * hundreds of characters of it). open_link takes this form back, and the link's text or handle.
 */
function externalHref(url: URL): string {
  const written = url.protocol.startsWith('http')
    ? `${url.host.replace(/^www\./, '')}${url.pathname === '/' ? '' : url.pathname}`
    : url.href;
  const cut = written.length > MAX_EXTERNAL_HREF ? `${written.slice(0, MAX_EXTERNAL_HREF - 1)}…` : written;
  return url.search && !cut.endsWith('…') ? `${cut}?…` : cut;
}

const MAX_EXTERNAL_HREF = 40;

/** A name for quoting inside `"…"`: capped, and a `"` of the page cannot end the quote. */
export function quoted(text: string, max = 80): string {
  return `"${clean(text, max).replace(/"/g, "'").replace(/\[/g, '(').replace(/\]/g, ')')}"`;
}
