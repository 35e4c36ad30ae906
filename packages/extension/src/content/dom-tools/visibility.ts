import { isShadowRoot, isTag } from './composed-tree';
import { WIDGET_ROLES } from './elements';
import { hitIn } from './hit-test';

/**
 * Whether a person can see an element, judged as a person would and not only by `display`: a page
 * can hide a twin of a real control (opacity 0, clipped to a pixel, moved off the page, no size,
 * transparent ink) so that an agent acts on it (docs/dom-tools.md, "What counts as shown"). What fails
 * here becomes no tool, no handle and no page text.
 */

/**
 * Controls whose own caption is all a person sees of them: transparent ink hides them whole. A
 * container role (a grid, a list) is no control: its items draw themselves (a pill list of `font-size:
 * 0`, the inline-block gap trick, shows every pill at its own size). Built on first use: elements.ts
 * and this module import each other.
 */
let control: string | undefined;
const controlSelector = () =>
  (control ??= [
    'a[href]',
    'button',
    'input',
    'select',
    'textarea',
    'summary',
    '[onclick]',
    ...[...WIDGET_ROLES, 'gridcell'].map((role) => `[role=${role}]`),
    '[tabindex]:not([role])',
  ].join(','));
const MEDIA = 'img,svg,canvas,video,picture,input,select,textarea';

/**
 * Verdicts and the page's scroll origin hold for one synchronous run (a derivation, a read): the
 * page cannot change in between, and asking the same element twice (a walk, then a tool) is free.
 * Only our own code can scroll within a run (an action brings its target into view, then reads the
 * page before acting): a run whose origin moved starts afresh, else everything the scroll moved above
 * the viewport would count as off the page, and the action would report it as new.
 */
let run: { verdicts: WeakMap<Element, boolean>; scrollX: number; scrollY: number } | undefined;
function thisRun() {
  if (run && (run.scrollX !== window.scrollX || run.scrollY !== window.scrollY)) run = undefined;
  if (!run) {
    run = { verdicts: new WeakMap(), scrollX: window.scrollX, scrollY: window.scrollY };
    queueMicrotask(() => {
      run = undefined;
    });
  }
  return run;
}

/** Laid out, not visibility:hidden, not transparent (here or above), not clipped away, not off the page. */
export function shownToAPerson(element: Element): boolean {
  const { verdicts } = thisRun();
  let verdict = verdicts.get(element);
  if (verdict === undefined) {
    verdict = judge(element);
    verdicts.set(element, verdict);
  }
  return verdict;
}

function judge(element: Element): boolean {
  if (typeof element.checkVisibility !== 'function') return element.getClientRects().length > 0;
  if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
    if (getComputedStyle(element).display === 'contents') return true;
    return (
      behindItsLabel(element) ||
      drawnByItsComponent(element) ||
      fadedOverItsDrawing(element) ||
      editorOf(element) !== undefined
    );
  }
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  if ((offThePage(box, style) && !insideScrolledBox(element)) || clippedAway(style)) return behindItsLabel(element);
  const flat = box.width < 1.5 || box.height < 1.5;
  // A box of a pixel or none: the "visually hidden" pattern, or a control with nothing to show.
  if (flat && (style.overflowX !== 'visible' || style.overflowY !== 'visible'))
    return behindItsLabel(element) || editorOf(element) !== undefined;
  if (element.matches(controlSelector())) {
    // A control of no size may still show a glyph or icon drawn by ::before/::after (a sort arrow).
    if ((box.width === 0 || box.height === 0) && !pseudoInk(element) && !handleOfItsCaption(element))
      return behindItsLabel(element);
    if (inkless(style) && !element.querySelector(MEDIA) && !pseudoInk(element))
      return behindItsLabel(element) || editorOf(element) !== undefined;
  }
  return true;
}

/**
 * An empty control of no size whose label begins with the caption shown right around it (DataTables'
 * sort button in a column header, labelled "Age: Activate to sort" beside the header's "Age"): a
 * person sees and clicks that caption, and the label an agent reads says what a person reads.
 */
function handleOfItsCaption(element: Element): boolean {
  const label = element.getAttribute('aria-label')?.trim().toLowerCase();
  if (!label || element.textContent?.trim()) return false;
  const around = element.parentElement;
  if (!around || !('innerText' in around) || !shownToAPerson(around)) return false;
  const caption = around.innerText.replace(/\s+/g, ' ').trim().toLowerCase();
  return caption !== '' && label.startsWith(caption);
}

/** Ink drawn by the element's ::before or ::after: a glyph in a colour, a border, a background. */
function pseudoInk(element: Element): boolean {
  for (const pseudo of ['::before', '::after']) {
    const style = getComputedStyle(element, pseudo);
    if (style.content === 'none' || style.content === 'normal' || style.display === 'none') continue;
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    if (boxInk(style)) return true;
    const glyph = /^"(.*)"$/.exec(style.content)?.[1]?.trim();
    if (glyph && !transparent(style.color) && Number.parseFloat(style.fontSize) > 0) return true;
    if (style.content.startsWith('url(')) return true;
  }
  return false;
}

/** A border or background that shows: what draws a field's box or a button's face. */
function boxInk(style: CSSStyleDeclaration): boolean {
  if (!transparent(style.backgroundColor) || style.backgroundImage !== 'none') return true;
  return ['Top', 'Right', 'Bottom', 'Left'].some((side) => {
    const width = Number.parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`));
    const color = style.getPropertyValue(`border-${side.toLowerCase()}-color`);
    const line = style.getPropertyValue(`border-${side.toLowerCase()}-style`);
    return width > 0 && line !== 'none' && line !== 'hidden' && !transparent(color);
  });
}

/** Elements of a component's drawing looked at, at most: its shadow content is small. */
const COMPONENT_INK_LIMIT = 300;

/**
 * A text field faded out inside a component (Material's empty field shows its input only once
 * focused) is still a field a person sees: its box is its ink, and the component draws that box
 * (an outline, a fill, often by ::before/::after) in its shadow content over the field. A field
 * faded out with nothing drawn over it stays hidden (docs/dom-tools.md, "What counts as shown").
 */
function drawnByItsComponent(element: Element): boolean {
  if (!(isTag(element, 'input') || isTag(element, 'textarea'))) return false;
  if (isTag(element, 'input') && FIELDLESS_INPUTS.has(element.type)) return false;
  if (!element.checkVisibility({ visibilityProperty: true })) return false;
  const root = element.getRootNode();
  if (!isShadowRoot(root) || !shownToAPerson(root.host)) return false;
  const field = element.getBoundingClientRect();
  if (field.width < 1.5 || field.height < 1.5) return false;
  const pending: Element[] = [...root.children];
  for (let seen = 0; pending.length && seen < COMPONENT_INK_LIMIT; seen++) {
    const node = pending.pop() as Element;
    if (node.shadowRoot) pending.push(...node.shadowRoot.children);
    pending.push(...node.children);
    if (!node.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    if (!overlaps(node.getBoundingClientRect(), field)) continue;
    if (boxInk(getComputedStyle(node)) || pseudoInk(node)) return true;
  }
  return false;
}

const FIELDLESS_INPUTS = new Set([
  'hidden',
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'image',
  'file',
  'range',
  'color',
]);

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Some ancestor clips an element away (a one-pixel box with overflow hidden, a clip-path to
 * nothing): a walk from the root leaves such ancestors behind, a look at one element must check.
 */
export function clippedByAncestor(element: Element): boolean {
  for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (clippedAway(style)) return true;
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const box = node.getBoundingClientRect();
    if (box.width < 1.5 || box.height < 1.5) return true;
  }
  return false;
}

/** Text in this element (its own text nodes) is drawn in nothing a person sees: size 0 or no colour. */
function inkless(style: CSSStyleDeclaration): boolean {
  if (Number.parseFloat(style.fontSize) === 0) return true;
  if (!transparent(style.color)) return false;
  // Transparent text on a box that still shows (a background, a border) is a blank control, not nothing.
  return (
    transparent(style.backgroundColor) &&
    style.backgroundImage === 'none' &&
    (Number.parseFloat(style.borderTopWidth) === 0 || transparent(style.borderTopColor))
  );
}

/** Its own text nodes are unreadable: no size or no colour (the box may still show, its children too). */
export function textInvisible(element: Element): boolean {
  const style = getComputedStyle(element);
  return Number.parseFloat(style.fontSize) === 0 || transparent(style.color);
}

function transparent(color: string): boolean {
  if (color === 'transparent') return true;
  const alpha = /^rgba\([^)]*,\s*([\d.]+)\)$/.exec(color)?.[1] ?? /\/\s*([\d.]+)\)$/.exec(color)?.[1];
  return alpha !== undefined && Number(alpha) === 0;
}

function offThePage(box: DOMRect, style: CSSStyleDeclaration): boolean {
  // Left of or above the page's origin, where no scrolling reaches (`left: -9999px`).
  const { scrollX, scrollY } = thisRun();
  if (box.right + scrollX > 0 && box.bottom + scrollY > 0) return false;
  const fixed = style.position === 'fixed';
  return (fixed ? box.right : box.right + scrollX) <= 0 || (fixed ? box.bottom : box.bottom + scrollY) <= 0;
}

/**
 * Inside a box scrolled away from its start: what lies above or left of the page's origin there was
 * moved by that scroll, and scrolling back reaches it (a virtual list's wrapper, scrolled to its end,
 * sits far above the page while its rows show). Asked only of what would otherwise be off the page.
 */
function insideScrolledBox(element: Element): boolean {
  for (let node = element.parentElement; node && node !== element.ownerDocument.body; node = node.parentElement)
    if (node.scrollTop > 0 || node.scrollLeft > 0) return true;
  return false;
}

function clippedAway(style: CSSStyleDeclaration): boolean {
  const clip = style.clip;
  if (clip && clip !== 'auto' && (style.position === 'absolute' || style.position === 'fixed')) {
    const sides = (clip.match(/-?[\d.]+px/g) ?? []).map((side) => Number.parseFloat(side));
    const [top = 0, right = 0, bottom = 0, left = 0] = sides;
    if (sides.length === 4 && (right - left <= 1 || bottom - top <= 1)) return true;
  }
  const path = style.clipPath;
  if (!path || path === 'none') return false;
  const inset = /^inset\(([^)]*)\)/.exec(path)?.[1];
  if (inset) {
    const sides = inset
      .split(/\s+/)
      .filter((part) => part.endsWith('%'))
      .map((part) => Number.parseFloat(part));
    if (sides.some((side) => side >= 50)) return true;
  }
  if (/^(circle|ellipse)\(0(px|%)?[\s)]/.test(path)) return true;
  const polygon = /^polygon\(([^)]*)\)/.exec(path)?.[1];
  return polygon !== undefined && new Set(polygon.split(',').map((point) => point.trim())).size <= 1;
}

/** The smallest box an editor that takes its typing through a hidden textarea draws its text in. */
const EDITOR_MIN = { width: 40, height: 20 };

/**
 * The editor a named textarea types into while the editor draws the text itself (Ace, Monaco and
 * CodeMirror 5 keep a tiny, transparent textarea at the cursor): a person clicks the editor and types,
 * and the keys go to that textarea. The editor is the nearest shown box around it of a real size, a
 * few levels up at most; undefined for any other hidden field.
 */
export function editorOf(element: Element): Element | undefined {
  if (element.localName !== 'textarea' || !element.getAttribute('aria-label')?.trim()) return undefined;
  if (!element.checkVisibility({ visibilityProperty: true })) return undefined;
  let node = element.parentElement;
  for (let level = 0; node && level < 3; level++, node = node.parentElement) {
    const box = node.getBoundingClientRect();
    if (box.width >= EDITOR_MIN.width && box.height >= EDITOR_MIN.height)
      return node.checkVisibility({ visibilityProperty: true, opacityProperty: true }) ? node : undefined;
  }
  return undefined;
}

/** Inputs a page commonly fades out over a box it draws itself: the click still goes to the input. */
const FADED_OVER_DRAWING = new Set(['checkbox', 'radio', 'file']);

/**
 * A checkbox, radio or file input faded out (opacity 0) over the box the page draws for it (TodoMVC's
 * `.toggle` over its label's circle, a styled upload button): a person sees the drawing and clicks
 * there, and the browser's hit test gives that click to the input. Judged by that hit test where the
 * input is in the window; outside it, by its box, and the action's own hit test (hit-test.ts) decides.
 */
function fadedOverItsDrawing(element: Element): boolean {
  if (element.localName !== 'input' || !FADED_OVER_DRAWING.has((element as HTMLInputElement).type)) return false;
  if (!element.checkVisibility({ visibilityProperty: true })) return false;
  const box = element.getBoundingClientRect();
  if (box.width < 1.5 || box.height < 1.5) return false;
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return true;
  const hit = hitIn(element.ownerDocument, x, y);
  return hit === element;
}

/**
 * A native checkbox or radio hidden behind its styled label (TodoMVC's `.toggle`): a person clicks
 * the label, which toggles it, so it counts as shown while its label is.
 */
function behindItsLabel(element: Element): boolean {
  if (!isTag(element, 'input') || (element.type !== 'checkbox' && element.type !== 'radio')) return false;
  for (const label of element.labels ?? []) {
    if (label.checkVisibility?.({ visibilityProperty: true, opacityProperty: true }) !== false) {
      const box = label.getBoundingClientRect();
      if (box.width >= 1.5 && box.height >= 1.5) return true;
    }
  }
  return false;
}
