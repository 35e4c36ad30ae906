import { isTag } from './composed-tree';
/**
 * `act select` on a text field or an editable region: selects a piece of its text, as a person drags
 * over it, so the editor's own commands (its toolbar's Bold, a key) apply to it. The editor reads the
 * selection the browser reports, the same as after a drag.
 */

/** True when the text was found and selected; its first occurrence is taken. */
export function selectTextIn(element: Element, text: string): boolean {
  const html = element as HTMLElement;
  if (isTag(element, 'input') || isTag(element, 'textarea')) {
    const start = element.value.indexOf(text);
    if (start < 0 || !text) return false;
    html.focus({ preventScroll: true });
    element.setSelectionRange(start, start + text.length);
    return true;
  }
  const range = rangeOf(element, text);
  if (!range) return false;
  if (element.ownerDocument.activeElement !== element) html.focus({ preventScroll: true });
  const selection = element.ownerDocument.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return true;
}

/** Whether the element's text holds `text` (what selectTextIn would find). */
export function holdsText(element: Element, text: string): boolean {
  if (isTag(element, 'input') || isTag(element, 'textarea')) return text !== '' && element.value.includes(text);
  return text !== '' && (element.textContent ?? '').includes(text);
}

/** The range over the first occurrence of `text` in the element's text nodes, across node boundaries. */
function rangeOf(element: Element, text: string): Range | undefined {
  if (!text) return undefined;
  const nodes: Text[] = [];
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  const whole = nodes.map((node) => node.data).join('');
  const start = whole.indexOf(text);
  if (start < 0) return undefined;
  const end = start + text.length;
  const range = element.ownerDocument.createRange();
  let offset = 0;
  for (const node of nodes) {
    const next = offset + node.data.length;
    if (start >= offset && start < next) range.setStart(node, start - offset);
    if (end > offset && end <= next) {
      range.setEnd(node, end - offset);
      return range;
    }
    offset = next;
  }
  return undefined;
}
