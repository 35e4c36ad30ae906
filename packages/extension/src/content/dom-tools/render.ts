import { composedChildNodes, composedQuery, composedQueryAll, frameDocument, isTag } from './composed-tree';
import { isInteractive, token } from './elements';
import { frameLine } from './frame-link';
import { HANDLE_PATTERN, type Handles } from './handles';
import type { HoverRules } from './hover';
import { isScrollRegion } from './scroll-regions';
import { accessibleName, clean, isShown, pageText, quoted, shortHref, visibleText } from './text';
import { textInvisible } from './visibility';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'CANVAS', 'OBJECT', 'HEAD', 'LINK']);
/** Inside an SVG drawing, what makes it a widget (a slider's thumb, a rating's stars) rather than a picture. */
const SVG_WIDGET = '[role], [tabindex], a';
const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'DD',
  'DETAILS',
  'DIALOG',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'LEGEND',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TBODY',
  'THEAD',
  'TFOOT',
  'UL',
  'MENU',
]);
const DIALOG_ROLES = new Set(['dialog', 'alertdialog']);
/** Tags that are inline unless a style sheet says otherwise; asking the style costs, so only for these. */
const RESTYLED_INLINE = new Set(['SPAN', 'LABEL', 'I', 'B', 'EM', 'STRONG', 'SMALL', 'FONT']);
/** An interactive element with more text than this is shown as a marker followed by its content. */
const MAX_TOKEN_TEXT = 100;

export interface RenderContext {
  handles: Handles;
  hover: HoverRules;
  /**
   * Frames of another site: those the walk met (`found`), and what each reads as once asked
   * (`reads`, frame-link.ts); a walk without them writes a frame as one line.
   */
  frames?: { found: Element[]; reads: Map<Element, string> };
}

/**
 * Writes part of the page as compact Markdown for an agent: visible text in source case, every
 * interactive element as a token with its handle, nothing hidden, no comments.
 */
export function renderMarkdown(root: Element, context: RenderContext, skip?: (element: Element) => boolean): string {
  return renderUpTo(root, context, Number.POSITIVE_INFINITY, skip).text;
}

/**
 * The same, but the walk stops once about `limit` characters are written: a read of the first
 * page of a 100,000-element page walks only what it shows (`complete` says whether all was).
 */
export function renderUpTo(
  root: Element,
  context: RenderContext,
  limit: number,
  skip?: (element: Element) => boolean,
): { text: string; complete: boolean } {
  const out: string[] = [];
  const budget = { written: 0, limit };
  new Walker(context, out, skip, budget).element(root, false, true);
  return { text: tidy(out.join('')), complete: budget.written <= limit };
}

function tidy(text: string): string {
  const lines = text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    // A list item whose content starts with a block: keep the bullet on the content's line.
    .replace(/\n-\n+/g, '\n- ')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .split('\n');
  // Items of one list, and rows of one table, stay on consecutive lines.
  const together = (above: string | undefined, below: string | undefined) =>
    (above?.startsWith('- ') && below?.startsWith('- ')) || (above?.startsWith('|') && below?.startsWith('|'));
  return lines.filter((line, index) => line !== '' || !together(lines[index - 1], lines[index + 1])).join('\n');
}

class Walker {
  readonly #context: RenderContext;
  readonly #out: string[];
  /** Parts left out whole (site chrome in main-content mode). */
  readonly #skip: ((element: Element) => boolean) | undefined;

  /** Characters written so far (text and tokens), and where the walk stops. */
  readonly #budget: { written: number; limit: number };

  constructor(
    context: RenderContext,
    out: string[],
    skip?: (element: Element) => boolean,
    budget = { written: 0, limit: Number.POSITIVE_INFINITY },
  ) {
    this.#context = context;
    this.#out = out;
    this.#skip = skip;
    this.#budget = budget;
  }

  node(node: Node, onHover: boolean): void {
    if (this.#budget.written > this.#budget.limit) return;
    if (node.nodeType === TEXT_NODE) {
      // A lone space between two inline elements is a word boundary ("1 item left").
      const text = pageText(node.textContent ?? '');
      this.#budget.written += text.length;
      if (text && (text === ' ' || !node.parentElement || !textInvisible(node.parentElement))) this.#out.push(text);
      return;
    }
    if (node.nodeType === ELEMENT_NODE) this.element(node as Element, onHover, false);
  }

  element(element: Element, onHover: boolean, isRoot: boolean): void {
    if (SKIP.has(element.tagName)) return;
    // A drawing is read only where it holds a widget: an icon or a chart says nothing a person reads as text.
    if (element.localName === 'svg' && element.querySelector(SVG_WIDGET) === null) return;
    if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('inert')) return;
    if (!isRoot && this.#skip?.(element)) return;
    let hovering = onHover;
    if (!hovering && !isRoot && !shown(element)) {
      // Hidden, unless the page's CSS shows it when the pointer is over its row.
      if (!this.#context.hover.reveals(element)) return;
      hovering = true;
    }
    const out = this.#out;
    const tag = element.tagName;
    if (tag === 'TR') {
      this.#row(element, hovering);
      return;
    }
    if (!isRoot && isInteractive(element) && this.#interactive(element, hovering)) return;
    // A box a person scrolls leads its content with a handle, for `scroll` or a click and a key inside it.
    if (!isRoot && isScrollRegion(element)) {
      // Its text follows: only a name the page gave it (aria-label, a title) is written in the token.
      const withName = accessibleName(element).from !== 'text';
      const written = token(element, this.#context.handles.of(element), {
        onHover: hovering,
        scrollable: true,
        withName,
      });
      this.#budget.written += written.length;
      out.push(` ${written} `);
    }
    const heading = /^H([1-6])$/.exec(tag);
    if (heading) {
      out.push(`\n\n${'#'.repeat(Number(heading[1]))} `);
      this.children(element, hovering);
      out.push('\n\n');
      return;
    }
    switch (tag) {
      case 'IMG': {
        const alt = (element as HTMLImageElement).alt.trim();
        if (alt) out.push(` [image ${quoted(alt)}] `);
        return;
      }
      case 'BR':
        out.push('\n');
        return;
      case 'LI':
        out.push('\n- ');
        this.children(element, hovering);
        out.push('\n');
        return;
      case 'IFRAME':
        // A same-origin frame reads as part of the page; a cross-origin one as its own script read it, if asked.
        if (!frameDocument(element)) {
          const frames = this.#context.frames;
          const read = frames?.reads.get(element);
          if (read === undefined) frames?.found.push(element);
          const written = read ?? frameLine(element, this.#context.handles);
          this.#budget.written += written.length;
          out.push(written);
          return;
        }
        out.push('\n');
        this.children(element, hovering);
        out.push('\n');
        return;
      case 'OPTION':
        return;
    }
    if (tag === 'SLOT') {
      for (const assigned of (element as HTMLSlotElement).assignedNodes({ flatten: true }))
        this.node(assigned, hovering);
      return;
    }
    // An open dialog is said as such: the page behind it may not answer until it closes.
    const dialog = tag === 'DIALOG' || DIALOG_ROLES.has(element.getAttribute('role') ?? '');
    if (dialog || BLOCK.has(tag)) {
      out.push(dialog ? '\n[dialog]\n' : '\n');
      this.children(element, hovering);
      out.push('\n');
      return;
    }
    if (RESTYLED_INLINE.has(tag) || tag.includes('-')) {
      const display = getComputedStyle(element).display;
      // Items of a flex or grid row are blockified by CSS, yet read side by side.
      if (display !== 'contents' && !display.startsWith('inline') && !inRow(element)) {
        out.push(display === 'block' || display === 'flex' || display === 'grid' ? '\n' : ' ');
        this.children(element, hovering);
        out.push(display === 'block' || display === 'flex' || display === 'grid' ? '\n' : ' ');
        return;
      }
    }
    this.children(element, hovering);
  }

  children(element: Element, onHover: boolean): void {
    // Shadow content, slotted nodes in their slot's place, a same-origin frame's body; no further than
    // the read shows (a table body of 25,000 rows is not copied for its first hundred).
    const nodes = composedChildNodes(element);
    const budget = this.#budget;
    for (let index = 0; index < nodes.length && budget.written <= budget.limit; index++)
      this.node(nodes[index] as Node, onHover);
  }

  /** `| a | b |`; a focusable row (a tree grid's) leads with its token, a focusable cell (a sortable header) is one. */
  #row(row: Element, onHover: boolean): void {
    const out = this.#out;
    out.push('\n|');
    const cells = Array.from(composedChildNodes(row)).filter((node): node is Element => node.nodeType === ELEMENT_NODE);
    if (isInteractive(row)) out.push(` ${token(row, this.#context.handles.of(row), { onHover, withName: false })}`);
    for (const cell of cells) {
      if (!shown(cell)) continue;
      const parts: string[] = [];
      const walker = new Walker(this.#context, parts, this.#skip, this.#budget);
      if (isInteractive(cell)) walker.element(cell, onHover, false);
      else walker.children(cell, onHover);
      out.push(` ${clean(parts.join(''), 100_000).replace(/\|/g, '\\|')} |`);
    }
    out.push('\n');
  }

  /** Writes an interactive element; false when it is a large container whose content must be walked. */
  #interactive(element: Element, onHover: boolean): boolean {
    const handle = this.#context.handles.of(element);
    // What a person reads of it: a collapsed tree item's hidden group is no text of it.
    const text = visibleText(element, MAX_TOKEN_TEXT * 3 + 1);
    // A header cell's box (the wrapper a table library clicks to sort) is no block of content; a
    // control whose few words sit in a block of their own (an autocomplete's `<li><div>Canada`) is
    // still one token: only a long text or a control inside makes it a container.
    const blockish = !element.matches(HEADER_CELL) && composedQuery(element, BLOCK_CHILD) !== undefined;
    const container =
      !isTag(element, 'select') &&
      (text.length > MAX_TOKEN_TEXT * 3 ||
        composedQueryAll(element, NESTED_CONTROLS).some(shown) ||
        (blockish &&
          (text.length > MAX_TOKEN_TEXT ||
            // Only controls a person sees inside: a collapsed tree item's hidden group leaves it one named token.
            composedQueryAll(element, '*').some((inner) => isInteractive(inner) && shown(inner)))));
    const link = isTag(element, 'a') ? shortHref(element) : '';
    // A field's <label> is left out of its token only when it is the text right before it ("Email
    // [textbox …]"): a label placed elsewhere (above a component's placeholder box) names the token.
    const labelWritten = (name: string) => endsWithWords(this.#out, name);
    // A container's text follows its token; a name given by aria-label is no text of it, so it stays.
    const written = token(element, handle, {
      onHover,
      withName: !container || accessibleName(element).from === 'aria',
      labelWritten,
    });
    this.#budget.written += written.length;
    // A row of a tree grid or a tree item is a line of its own, as a person sees it.
    const line = LINE_ROLES.has(element.getAttribute('role') ?? '') ? '\n' : ' ';
    // A control with no name (an icon nobody labelled) tells an agent nothing: left out, its content kept.
    // A token written without its name (a field inside its own <label>) still has one: only a control
    // with no accessible name at all is left out. In a table's row it is kept where it sits: the row's
    // text beside it says what it acts on (a tree grid's expand toggle before "Engineering").
    const nameless = NAMELESS.test(written) && !accessibleName(element).name && !element.parentElement?.closest(ROW);
    if (container || !nameless) this.#out.push(`${line}${written}${link ? `(${link})` : ''}${line}`);
    if (!container) return true;
    this.children(element, onHover);
    this.#out.push(' ');
    return true;
  }
}

/** Whether the text written last, spaces aside, ends with `words`. */
function endsWithWords(out: readonly string[], words: string): boolean {
  let tail = '';
  for (let index = out.length - 1; index >= 0 && tail.length < words.length * 2 + 16; index--) tail = out[index] + tail;
  return tail.replace(/\s+/g, ' ').trimEnd().endsWith(words);
}

/** A token with a role, perhaps flags, and a handle only: `[button (collapsed) k1234]`. */
const NAMELESS = new RegExp(`^\\[(button|link|clickable|menuitem|tab)( \\([^)]*\\))? ${HANDLE_PATTERN}\\]$`);
const LINE_ROLES = new Set(['row', 'treeitem']);
const ROW = 'tr, [role=row]';
const BLOCK_CHILD = 'p, div, h1, h2, h3, h4, h5, h6, li, ul, ol, table, section, article';
// A hidden input (a form value a component keeps beside its control) is no control a person sees.
const NESTED_CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea';
const HEADER_CELL = 'th, [role=columnheader]';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

function shown(element: Element): boolean {
  if ((element as HTMLElement).hidden === true) return false;
  // A display:contents box has no box of its own, yet its children show.
  return isShown(element) || getComputedStyle(element).display === 'contents';
}

function inRow(element: Element): boolean {
  const parent = element.parentElement;
  if (!parent) return false;
  const style = getComputedStyle(parent);
  return style.display.endsWith('flex') ? !style.flexDirection.startsWith('column') : style.display.endsWith('grid');
}
