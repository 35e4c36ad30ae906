import { isTag } from './composed-tree';
import { checkedState, describeElement } from './elements';
import { visibleText } from './text';
import { editorOf } from './visibility';

/**
 * After an action, the state it meant to set is read back from the page, so an answer says what
 * really happened (docs/dom-tools.md, "Results"): a page can ignore a click, undo a value, or
 * cancel a submit, and the action must not be reported as done. Each check answers a sentence
 * saying what did not take, or undefined when it took.
 */
export type Readback = (pageChanged: boolean) => string | undefined | Promise<string | undefined>;

/** How long a state the page has not shown yet is waited for (see stateShown). */
const LATE_STATE_MS = 1_000;

export function expectChecked(element: Element, wanted: boolean): Readback {
  return async () => {
    const holds = () => {
      const state = checkedState(element);
      return state === undefined || state === wanted;
    };
    if (await stateShown(element, holds)) return undefined;
    const now = checkedState(element);
    return `${describeElement(element)} is ${now === 'mixed' ? 'mixed' : now ? 'still checked' : 'still unchecked'}: the page did not take the change`;
  };
}

/**
 * Whether the state holds, given the time a component takes to show it: a switch whose gesture ends
 * in a later frame (Ionic's toggle flips on its drag's end, after the page looked settled) would
 * otherwise be reported as ignored, and an agent that believed that would click it back off. Answers
 * at once when the state holds; otherwise looks again at each change of the element's attributes
 * and at each painted frame, at most LATE_STATE_MS (frames do not come in a background tab).
 */
function stateShown(element: Element, holds: () => boolean): Promise<boolean> {
  if (holds()) return Promise.resolve(true);
  return new Promise((resolve) => {
    let frame = 0;
    const finish = (shown: boolean) => {
      observer.disconnect();
      clearTimeout(bound);
      cancelAnimationFrame(frame);
      resolve(shown);
    };
    const look = () => {
      if (holds()) finish(true);
    };
    const observer = new MutationObserver(look);
    observer.observe(element, { attributes: true, subtree: true });
    const onFrame = () => {
      frame = requestAnimationFrame(onFrame);
      look();
    };
    frame = requestAnimationFrame(onFrame);
    const bound = setTimeout(() => finish(holds()), LATE_STATE_MS);
  });
}

/**
 * A text field holds the text typed, compared as a person reads it: an editor's line breaks and runs of
 * spaces are its own (a field with maxLength or a mask may shorten or reshape it: said as such). A
 * field its own submit emptied (a todo list's add box) took the text when the page changed: that is
 * the submit's effect, not a failure.
 */
export function expectValue(element: Element, wanted: string, submitted: boolean): Readback {
  return (pageChanged) => {
    const now = textValueOf(element);
    if (now === undefined || asRead(now) === asRead(wanted)) return undefined;
    // An editor that draws its text itself shows what was typed; its hidden textarea holds nothing of it.
    const editor = editorOf(element);
    if (editor && asRead(visibleText(editor, 10_000)).includes(asRead(wanted))) return undefined;
    if (submitted && pageChanged) return undefined;
    if (!element.isConnected) return `${describeElement(element)} left the page before its value could be read back`;
    return `${describeElement(element)} holds ${JSON.stringify(now.slice(0, 80))}, not the value given: the page did not take it as typed`;
  };
}

/** Text as a person reads it: line breaks of any kind alike, spaces collapsed, no space at line ends. */
function asRead(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

export function expectSelected(select: HTMLSelectElement, value: string): () => string | undefined {
  return () => {
    if (!select.isConnected || select.value === value) return undefined;
    const shown = select.selectedOptions[0];
    return `${describeElement(select)} shows ${JSON.stringify((shown?.label || shown?.text || '').slice(0, 80))}: the page did not take the choice`;
  };
}

/**
 * The caption of the element acted on, before the action and as the click reached it: a page that
 * renames a control on pointerdown ("Cancel" → "Delete account") is reported under both names.
 */
export function watchCaption(element: Element): { renamed(): string | undefined; stop(): void } {
  const before = describeElement(element);
  let atClick: string | undefined;
  const onClick = (event: Event) => {
    const target = event.target as Node | null;
    // A node type, not instanceof Node: a same-origin frame's nodes belong to another window.
    if (atClick === undefined && typeof target?.nodeType === 'number' && element.contains(target))
      atClick = describeElement(element);
  };
  // The element's own window: a click in a same-origin frame never reaches the top window's listeners.
  const view = element.ownerDocument.defaultView ?? window;
  view.addEventListener('click', onClick, true);
  return {
    renamed: () => {
      const after = element.isConnected ? describeElement(element) : undefined;
      const other = [atClick, after].find((caption) => caption !== undefined && caption !== before);
      return other === undefined ? undefined : `${before} became ${other} as it was acted on`;
    },
    stop: () => view.removeEventListener('click', onClick, true),
  };
}

function textValueOf(element: Element): string | undefined {
  if (isTag(element, 'input') || isTag(element, 'textarea')) return element.value;
  // innerText, not textContent: an editor's lines are blocks, and only innerText keeps their breaks.
  if ((element as HTMLElement).isContentEditable) return (element as HTMLElement).innerText;
  return undefined;
}
