/**
 * Boxes a person scrolls inside the page (a virtualized list, a chat log, a code block): their content
 * runs past their box on an axis whose `overflow` lets the user scroll it (`auto`, `scroll`). The
 * browser's own layout says so, whatever the markup: react-window's list is a `role=list` box with no
 * `tabindex`, yet a person scrolls it by the wheel, or clicks in it and presses End.
 */

/** How far the content runs past the box along the axis, where its style lets a person scroll it (0 where not). */
export function scrollRoom(element: Element, vertical: boolean): number {
  const room = vertical ? element.scrollHeight - element.clientHeight : element.scrollWidth - element.clientWidth;
  // A pixel of overflow is rounding, not content.
  if (room <= 1) return 0;
  const style = getComputedStyle(element);
  const overflow = vertical ? style.overflowY : style.overflowX;
  return overflow === 'auto' || overflow === 'scroll' ? room : 0;
}

/** A region inside the page that scrolls (the page's own scroller is the window's, and needs no handle). */
export function isScrollRegion(element: Element): boolean {
  const doc = element.ownerDocument;
  if (element === doc.scrollingElement || element === doc.body || element === doc.documentElement) return false;
  return scrollRoom(element, true) > 0 || scrollRoom(element, false) > 0;
}
