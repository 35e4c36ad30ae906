/**
 * Column headers that sort on a click a script listens for, with nothing in the markup to say so
 * (no tabindex, no role, no `onclick` attribute): TanStack Table's sorting pattern, `<th><div
 * style="cursor: pointer" onClick=…>Age</div></th>`, and a `<th>` given a listener directly. The
 * pointer cursor is what tells a person: such a header gets a handle, and a click on it lands on
 * the box that shows the pointer, where a person's click would (a click on the `<th>` itself never
 * reaches a listener on a box inside it).
 */
const HEADER = 'th, [role=columnheader]';

export function isSortableHeader(element: Element): boolean {
  return element.matches(HEADER) && pointerBox(element) !== undefined;
}

/** Where a click on `element` goes: the pointer box of a sortable header, else the element itself. */
export function clickTarget(element: Element): Element {
  return (element.matches(HEADER) && pointerBox(element)) || element;
}

function pointerBox(header: Element): Element | undefined {
  // A cursor is inherited: only a header or box whose own style differs from its parent's counts.
  const cursor = getComputedStyle(header).cursor;
  if (cursor === 'pointer')
    return header.parentElement && getComputedStyle(header.parentElement).cursor === 'pointer' ? undefined : header;
  for (const child of header.children) if (getComputedStyle(child).cursor === 'pointer') return child;
  return undefined;
}
