import { isTag } from './composed-tree';
import { checkedState, isTypedInput, roleOf } from './elements';

/**
 * Input as a person makes it, in events frameworks listen to: React's value tracker, Vue's
 * v-model, Angular's forms and old libraries that read `keyCode`. Runs in the content script's
 * isolated world: only real event fields (KeyboardEventInit, MouseEventInit) reach page scripts.
 */

const KEY_CODES: Record<string, number> = {
  Enter: 13,
  Escape: 27,
  Tab: 9,
  Backspace: 8,
  Delete: 46,
  ' ': 32,
  Space: 32,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  Home: 36,
  End: 35,
  PageUp: 33,
  PageDown: 34,
};

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/** Replaces a field's text the way typing would; returns the value the field holds afterwards. */
export function fillText(element: Element, value: string): string {
  const html = element as HTMLElement;
  html.focus({ preventScroll: true });
  // Tag names, not instanceof: a same-origin frame's fields belong to another window.
  if (isTag(element, 'input') || isTag(element, 'textarea')) {
    typeInto(element, value);
    element.dispatchEvent(new Event('change', { bubbles: true }));
    return element.value;
  }
  // contenteditable: select its content and let the editing machinery replace it (fires beforeinput/input).
  const selection = element.ownerDocument.getSelection();
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(element);
  selection?.removeAllRanges();
  selection?.addRange(range);
  const inserted = value
    ? element.ownerDocument.execCommand('insertText', false, value)
    : element.ownerDocument.execCommand('delete');
  if (!inserted || (element.textContent ?? '') !== value) {
    element.textContent = value;
    element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
  }
  return element.textContent ?? '';
}

function typeInto(control: TextControl, value: string): void {
  // The editing machinery fires trusted beforeinput/input events, as typing does; it refuses some
  // input types (date, color), which then get the value set natively and the events by hand.
  let typed = false;
  try {
    control.select();
    typed = value
      ? control.ownerDocument.execCommand('insertText', false, value)
      : control.ownerDocument.execCommand('delete');
  } catch {
    typed = false;
  }
  if (typed && control.value === value) return;
  setNativeValue(control, value);
  control.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
}

/** The prototype's setter, so a framework's own `value` property on the element is bypassed and it sees a change. */
function setNativeValue(control: TextControl | HTMLSelectElement, value: string): void {
  const view = (control.ownerDocument.defaultView ?? window) as typeof window;
  const prototype = isTag(control, 'textarea')
    ? view.HTMLTextAreaElement.prototype
    : isTag(control, 'select')
      ? view.HTMLSelectElement.prototype
      : view.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(control, value);
  else control.value = value;
}

/** keydown, keypress (for Enter and printable keys) and keyup; true when the page did not cancel the keydown. */
export function pressKey(element: Element, key: string): boolean {
  (element as HTMLElement).focus?.({ preventScroll: true });
  const keyCode = KEY_CODES[key] ?? (key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0);
  const code = key === 'Enter' || KEY_CODES[key] ? (key === ' ' ? 'Space' : key) : codeOf(key);
  const normalisedKey = key === 'Space' ? ' ' : key;
  const init = (type: string): KeyboardEventInit & { keyCode: number; which: number; charCode: number } => ({
    key: normalisedKey,
    code,
    keyCode: type === 'keypress' ? charCodeOf(normalisedKey) : keyCode,
    which: type === 'keypress' ? charCodeOf(normalisedKey) : keyCode,
    charCode: type === 'keypress' ? charCodeOf(normalisedKey) : 0,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
  });
  const proceed = element.dispatchEvent(new KeyboardEvent('keydown', init('keydown')));
  if (proceed && (normalisedKey === 'Enter' || normalisedKey.length === 1)) {
    element.dispatchEvent(new KeyboardEvent('keypress', init('keypress')));
  }
  element.dispatchEvent(new KeyboardEvent('keyup', init('keyup')));
  if (proceed && normalisedKey === 'Enter') enterDefault(element);
  return proceed;
}

function codeOf(key: string): string {
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  return key;
}

function charCodeOf(key: string): number {
  if (key === 'Enter') return 13;
  return key.length === 1 ? key.charCodeAt(0) : 0;
}

/** What the browser does for an uncancelled Enter: submit a form implicitly, or activate a button or link. */
function enterDefault(element: Element): void {
  if (isTypedInput(element) && element.form) {
    const form = element.form;
    const submitter = [...form.elements].find(
      (candidate): candidate is HTMLButtonElement | HTMLInputElement =>
        (isTag(candidate, 'button') && candidate.type === 'submit') ||
        (isTag(candidate, 'input') && (candidate.type === 'submit' || candidate.type === 'image')),
    );
    if (submitter) {
      if (!submitter.disabled) form.requestSubmit(submitter);
      return;
    }
    // With no submit button, the browser submits only a form with a single field that blocks it.
    const blocking = [...form.elements].filter((candidate) => isTypedInput(candidate));
    if (blocking.length === 1) form.requestSubmit();
    return;
  }
  const role = roleOf(element);
  if ((isTag(element, 'a') && element.href) || isTag(element, 'button') || role === 'button' || role === 'link') {
    (element as HTMLElement).click();
  }
}

/** pointerdown/mousedown, focus, pointerup/mouseup, then the click with its default action. */
function click(element: Element): void {
  press(element);
  release(element);
}

/** The press half of a click: pointerdown/mousedown, then the focus a press gives. */
export function press(element: Element): void {
  const html = element as HTMLElement;
  html.scrollIntoView?.({ block: 'center', inline: 'nearest' });
  const at = centre(element);
  element.dispatchEvent(new PointerEvent('pointerdown', { ...at, isPrimary: true, pointerType: 'mouse' }));
  // A page that cancels the mousedown keeps the focus where it is, as the browser does: a type-ahead's
  // menu does so, so that picking an option does not blur (and close) the box being typed in.
  if (element.dispatchEvent(new MouseEvent('mousedown', at))) html.focus?.({ preventScroll: true });
}

/** The release half of a click: pointerup/mouseup, then the click with its default action. */
export function release(element: Element): void {
  const html = element as HTMLElement;
  const at = centre(element);
  element.dispatchEvent(new PointerEvent('pointerup', { ...at, isPrimary: true, pointerType: 'mouse' }));
  element.dispatchEvent(new MouseEvent('mouseup', at));
  if (typeof html.click === 'function') html.click();
  else element.dispatchEvent(new MouseEvent('click', at));
}

export function doubleClick(element: Element): void {
  click(element);
  const at = centre(element);
  element.dispatchEvent(new MouseEvent('mousedown', { ...at, detail: 2 }));
  element.dispatchEvent(new MouseEvent('mouseup', { ...at, detail: 2 }));
  element.dispatchEvent(new MouseEvent('click', { ...at, detail: 2 }));
  element.dispatchEvent(new MouseEvent('dblclick', { ...at, detail: 2 }));
}

export function hover(element: Element): void {
  const at = centre(element);
  const still = { ...at, bubbles: false };
  element.dispatchEvent(new PointerEvent('pointerover', { ...at, pointerType: 'mouse' }));
  element.dispatchEvent(new PointerEvent('pointerenter', { ...still, pointerType: 'mouse' }));
  element.dispatchEvent(new MouseEvent('mouseover', at));
  element.dispatchEvent(new MouseEvent('mouseenter', still));
  element.dispatchEvent(new PointerEvent('pointermove', { ...at, pointerType: 'mouse' }));
  element.dispatchEvent(new MouseEvent('mousemove', at));
}

/**
 * Sets a checkbox, radio or switch to `wanted` by clicking it, as a person would; true when it ends
 * so. A framework may commit the new state a moment after the click (React renders a discrete
 * event's update in a microtask), so the state is read again after the page had its turn.
 */
export async function setChecked(element: Element, wanted: boolean): Promise<boolean> {
  if (checkedState(element) === wanted) return true;
  click(element);
  const ends = () => checkedState(element) === wanted || checkedState(element) === undefined;
  if (ends()) return true;
  await pageTurn();
  return ends();
}

/**
 * Lets the page run between two steps, as time passes between a person's keystrokes: zoneless
 * Angular, for one, runs change detection there, and would not see a value typed and submitted
 * in the same task.
 */
export function pageTurn(): Promise<void> {
  return new Promise((done) => setTimeout(done, 0));
}

/** Picks an option of a <select> by value or text; the chosen value, or undefined when none matches. */
export function selectOption(element: HTMLSelectElement, wanted: string): string | undefined {
  const needle = wanted.trim().toLowerCase();
  const options = [...element.options].filter((option) => !option.disabled);
  const option =
    options.find((candidate) => candidate.value === wanted) ??
    options.find((candidate) => (candidate.label || candidate.text).trim().toLowerCase() === needle);
  if (!option) return undefined;
  element.focus({ preventScroll: true });
  setNativeValue(element, option.value);
  option.selected = true;
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return option.value;
}

function centre(element: Element): MouseEventInit {
  const box = element.getBoundingClientRect();
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    button: 0,
    clientX: box.left + box.width / 2,
    clientY: box.top + box.height / 2,
  };
}
