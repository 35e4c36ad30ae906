/**
 * Controls a library marks only by how it draws them: no role, no tabindex a person can tab to, no
 * `onclick` attribute, a listener set by script. What tells a person they can act there is the
 * pointer: a calendar's days (`tabindex="-1"`, `cursor: pointer`), an autocomplete's entries and a
 * sortable list's items (`<li>` with `cursor: pointer`, `move` or `grab`), an element the page made
 * `draggable`. Each counts only where its own style sets that cursor (its parent's differs), since a
 * cursor is inherited by everything inside, and a list item only when it holds no control of its
 * own (a menu's `<li>` around its link is read as the link).
 */
import { CURSORS, pointerOnHover } from './hover-cursor';

const INNER_CONTROL = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** Verdicts hold for one synchronous run (a derivation, a read), as visibility's do: asked once per element. */
let verdicts: WeakMap<Element, boolean> | undefined;

export function isStyledControl(element: Element): boolean {
  if (element.getAttribute('draggable') === 'true') return true;
  if (pointerOnHover(element)) return !wrapsOneControl(element);
  if (element.localName !== 'li' && element.getAttribute('tabindex') !== '-1') return false;
  if (!verdicts) {
    verdicts = new WeakMap();
    queueMicrotask(() => {
      verdicts = undefined;
    });
  }
  let verdict = verdicts.get(element);
  if (verdict === undefined) {
    verdict = judge(element);
    verdicts.set(element, verdict);
  }
  return verdict;
}

function judge(element: Element): boolean {
  // Only these are looked at: computing every element's cursor would cost a page of thousands.
  const item = element.localName === 'li';
  if (!item && element.getAttribute('tabindex') !== '-1') return false;
  const cursor = getComputedStyle(element).cursor;
  if (!CURSORS.has(cursor)) return false;
  const parent = element.parentElement;
  if (parent !== null && getComputedStyle(parent).cursor === cursor) return false;
  return !item || element.querySelector(INNER_CONTROL) === null;
}

/** A box around one control that holds all its text (a menu's `<li>` around its link): the control is what a person clicks. */
function wrapsOneControl(element: Element): boolean {
  const inner = element.querySelector(INNER_CONTROL);
  return inner !== null && inner.textContent?.trim() === element.textContent?.trim();
}
