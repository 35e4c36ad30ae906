import { composedContains, composedParent, shadowOf } from './composed-tree';
import { describeElement, isInteractive } from './elements';

import { isScrollRegion } from './scroll-regions';
import { isShown } from './text';

/**
 * What a person's pointer would reach (docs/dom-tools.md, "Where a pointer lands"): the browser's own
 * hit testing (`elementFromPoint`), followed into shadow roots (closed ones too, where the extension
 * can see them) and through every frame between the top page and the element. Every pointer action
 * asks this before it acts, trusted or synthetic: a point where something else is on top (a cookie
 * modal, an invisible frame from another site) is refused and the cover named, never clicked.
 */
export type Point = { x: number; y: number };

/**
 * `at` is in the top viewport's CSS pixels (what CDP input takes); `local` in the element's own frame;
 * `on` is what was aimed at: the element, or the caption around one of no size.
 */
export type Reach = { reached: true; at: Point; local: Point; on: Element } | { reached: false; why: string };

const FRAGMENT_NODE = 11;

/** Inset from the box's edge of the points tried after the centre: a badge over the centre leaves the rest. */
const EDGE_INSET = 3;

/** The innermost element at (x, y) of `doc`'s viewport, through its shadow roots. */
export function hitIn(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y);
  for (let depth = 0; hit && depth < 64; depth++) {
    const inner = shadowOf(hit)?.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * Scrolls the element into view (unless `scroll` is false) and finds a point of it that a pointer
 * reaches: its centre, else a point near each corner and edge. A hit on the element, inside it, or on
 * a label of it (a click there activates it) counts.
 */
export function reach(element: Element, scroll = true): Reach {
  // A control of no size shown by the caption around it (a sort button in its column header): a person
  // points at the caption.
  const shown = boxed(element);
  if (!shown) return { reached: false, why: `${describeElement(element)} has no box on the screen` };
  // Scrolled only when not wholly in view: a virtual list re-renders its rows on every scroll.
  if (scroll && !inView(shown)) (shown as HTMLElement).scrollIntoView?.({ block: 'center', inline: 'center' });
  let firstCover: Element | undefined;
  let onInnerControl: Point | undefined;
  for (const local of candidatePoints(shown.getBoundingClientRect())) {
    const outcome = reachAt(shown, local);
    if (outcome === true) {
      // A row's centre may be a cell's editor, a card's a button: a person clicks the row's own text.
      if (!onInnerControl && landsOnInnerControl(shown, local)) {
        onInnerControl = local;
        continue;
      }
      return reachedAt(element, shown, local);
    }
    firstCover ??= outcome ?? undefined;
  }
  // Every point of it is another control inside it: the first of them, as before.
  if (onInnerControl) return reachedAt(element, shown, onInnerControl);
  return { reached: false, why: coveredSentence(element, firstCover) };
}

function reachedAt(element: Element, shown: Element, local: Point): Reach {
  const offset = frameOffset(element.ownerDocument);
  if (!offset) return { reached: false, why: `${describeElement(element)} is in a frame tabmcp cannot point into` };
  return { reached: true, local, on: shown, at: { x: local.x + offset.x, y: local.y + offset.y } };
}

/** Whether the pointer at `local` lands on another control inside `element` (a click there acts on that one). */
function landsOnInnerControl(element: Element, local: Point): boolean {
  const hit = hitIn(element.ownerDocument, local.x, local.y);
  // A label of it or its component's host is no control inside it.
  if (!hit || hit === element || !composedContains(element, hit)) return false;
  for (let at: Element | null = hit; at && at !== element; at = composedParent(at)) {
    if (isInteractive(at)) return true;
  }
  return false;
}

function inView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const view = element.ownerDocument.defaultView ?? window;
  if (box.top < 0 || box.left < 0 || box.bottom > view.innerHeight || box.right > view.innerWidth) return false;
  // Inside a box that scrolls, only its scrollport shows: a row below a list's fold is in the window yet hidden.
  for (let up = composedParent(element); up; up = composedParent(up)) {
    if (!isScrollRegion(up)) continue;
    const port = up.getBoundingClientRect();
    const top = port.top + up.clientTop;
    const left = port.left + up.clientLeft;
    if (box.top < top || box.left < left || box.bottom > top + up.clientHeight || box.right > left + up.clientWidth)
      return false;
  }
  return true;
}

/** The element, or for one of no size the nearest box around it that has a size (at most a few levels up). */
function boxed(element: Element): Element | undefined {
  let current: Element | null = element;
  for (let level = 0; current && level < 3; level++, current = composedParent(current)) {
    const box = current.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) return current;
  }
  return undefined;
}

/** Whether the pointer at `local` (the element's frame) lands on it, as of now; else what it lands on. */
export function reachAt(element: Element, local: Point): true | Element | null {
  const doc = element.ownerDocument;
  const hit = hitIn(doc, local.x, local.y);
  if (!hit) return null;
  if (!landsOn(element, hit)) return hit;
  // Every frame on the way must be what the top page's pointer reaches too. A frame whose parent is
  // of another site has no frameElement here: its parent's script checks its own part (frame-service.ts).
  let view = doc.defaultView;
  let point = local;
  while (view && view !== window.top) {
    const frame = view.frameElement;
    if (!frame) break;
    const frameBox = frame.getBoundingClientRect();
    point = { x: point.x + frameBox.left + frame.clientLeft, y: point.y + frameBox.top + frame.clientTop };
    const outer = hitIn(frame.ownerDocument, point.x, point.y);
    if (outer !== frame) return outer;
    view = frame.ownerDocument.defaultView;
  }
  return true;
}

/** Whether a pointer that hits `hit` reaches `element`: on it, inside it, on a label of it, or on the host of its shadow tree. */
export function landsOn(element: Element, hit: Element): boolean {
  if (hit === element || composedContains(element, hit) || hostsAt(hit, element)) return true;
  // A control that takes no pointer events (`pointer-events: none`: Vuetify's select keeps its input so)
  // gives them to the box around it, whose handlers are the control's: a person's click there is on it.
  if (composedContains(hit, element) && getComputedStyle(element).pointerEvents === 'none') return true;
  // A label activates its control: a click on the drawn box of a styled checkbox lands on the label.
  const labels = (element as HTMLInputElement).labels;
  return labels !== undefined && labels !== null && [...labels].some((label) => label === hit || label.contains(hit));
}

/**
 * Whether `hit` is a shadow host whose own tree holds `element`: hit testing inside a component stops
 * at its host where the topmost box at the point is slotted content (Ionic's segment button answers
 * its host), and the component's control under the point then takes the click.
 */
function hostsAt(hit: Element, element: Element): boolean {
  // Node types, not instanceof: a same-origin frame's shadow roots belong to another window.
  for (
    let root = element.getRootNode();
    root.nodeType === FRAGMENT_NODE;
    root = (root as ShadowRoot).host.getRootNode()
  )
    if ((root as ShadowRoot).host === hit) return true;
  return false;
}

function candidatePoints(box: DOMRect): Point[] {
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  const inset = Math.min(EDGE_INSET, box.width / 4, box.height / 4);
  const left = box.left + inset;
  const right = box.right - inset;
  const top = box.top + inset;
  const bottom = box.bottom - inset;
  const points = [
    { x: cx, y: cy },
    { x: left, y: cy },
    { x: right, y: cy },
    { x: cx, y: top },
    { x: cx, y: bottom },
    { x: left, y: top },
    { x: right, y: top },
    { x: left, y: bottom },
    { x: right, y: bottom },
  ];
  // Only points in the viewport can be hit (a box larger than the window after scrolling).
  const width = window.innerWidth;
  const height = window.innerHeight;
  return points.filter((point) => point.x >= 0 && point.y >= 0 && point.x < width && point.y < height);
}

/**
 * The element's frame's origin in this script's viewport: the top's, or in a frame of another site
 * its own (the background adds each parent's offset, background/frames.ts). Undefined when a frame
 * on the way cannot be looked at.
 */
export function frameOffset(doc: Document): Point | undefined {
  let x = 0;
  let y = 0;
  let view = doc.defaultView;
  while (view && view !== window.top) {
    let frame: Element | null;
    try {
      frame = view.frameElement;
    } catch {
      return undefined;
    }
    if (!frame) break;
    const box = frame.getBoundingClientRect();
    x += box.left + frame.clientLeft;
    y += box.top + frame.clientTop;
    view = frame.ownerDocument.defaultView;
  }
  return { x, y };
}

function coveredSentence(element: Element, cover: Element | undefined): string {
  const what = describeElement(element);
  if (!cover)
    return `${what} is outside the window or under nothing a pointer reaches; scroll to it or close what covers it`;
  const frame = cover.localName === 'iframe' || cover.localName === 'frame';
  const coverName = frame
    ? `a frame (${frameSite(cover)})`
    : `${isShown(cover) ? '' : 'an invisible '}${describeElement(cover)}`;
  return `${what} is covered by ${coverName}: a click there would land on it, not on ${what}. Deal with what covers it first (get_page_content shows the page), then act again`;
}

function frameSite(frame: Element): string {
  const src = frame.getAttribute('src') ?? '';
  try {
    return new URL(src, frame.ownerDocument.baseURI).origin;
  } catch {
    return 'no address';
  }
}
