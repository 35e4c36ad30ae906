/**
 * Whether a person can see an element, judged as a person would and not only by `display`: a page
 * can hide a twin of a real control (opacity 0, clipped to a pixel, moved off the page, no size,
 * transparent ink) so that an agent acts on it (docs/dom-tools.md, "What counts as shown"). What fails
 * here becomes no tool, no handle and no page text.
 */

/** Controls whose own caption is all a person sees of them: transparent ink hides them whole. */
const CONTROL = 'a[href],button,input,select,textarea,summary,[role],[tabindex],[onclick]';
const MEDIA = 'img,svg,canvas,video,picture,input,select,textarea';

/**
 * Verdicts and the page's scroll origin hold for one synchronous run (a derivation, a read): the
 * page cannot change in between, and asking the same element twice (a walk, then a tool) is free.
 */
let run: { verdicts: WeakMap<Element, boolean>; scrollX: number; scrollY: number } | undefined;
function thisRun() {
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
    return behindItsLabel(element);
  }
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  if (offThePage(box, style) || clippedAway(style)) return behindItsLabel(element);
  const flat = box.width < 1.5 || box.height < 1.5;
  // A box of a pixel or none: the "visually hidden" pattern, or a control with nothing to show.
  if (flat && (style.overflowX !== 'visible' || style.overflowY !== 'visible')) return behindItsLabel(element);
  if (element.matches(CONTROL)) {
    if (box.width === 0 || box.height === 0) return behindItsLabel(element);
    if (inkless(style) && !element.querySelector(MEDIA)) return behindItsLabel(element);
  }
  return true;
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

/**
 * A native checkbox or radio hidden behind its styled label (TodoMVC's `.toggle`): a person clicks
 * the label, which toggles it, so it counts as shown while its label is.
 */
function behindItsLabel(element: Element): boolean {
  if (!(element instanceof HTMLInputElement) || (element.type !== 'checkbox' && element.type !== 'radio')) return false;
  for (const label of element.labels ?? []) {
    if (label.checkVisibility?.({ visibilityProperty: true, opacityProperty: true }) !== false) {
      const box = label.getBoundingClientRect();
      if (box.width >= 1.5 && box.height >= 1.5) return true;
    }
  }
  return false;
}
