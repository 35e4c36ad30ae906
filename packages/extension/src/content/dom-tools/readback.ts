import { checkedState, describeElement } from './elements';

/**
 * After an action, the state it meant to set is read back from the page, so an answer says what
 * really happened (docs/dom-tools.md, "Results"): a page can ignore a click, undo a value, or
 * cancel a submit, and the action must not be reported as done. Each check answers a sentence
 * saying what did not take, or undefined when it took.
 */
export type Readback = () => string | undefined;

export function expectChecked(element: Element, wanted: boolean): Readback {
  return () => {
    const state = checkedState(element);
    if (state === undefined || state === wanted) return undefined;
    return `${describeElement(element)} is still ${state ? 'checked' : 'unchecked'}: the page did not take the change`;
  };
}

/** A text field holds the text typed (a field with maxLength or a mask may shorten or reshape it: said as such). */
export function expectValue(element: Element, wanted: string): Readback {
  return () => {
    const now = textValueOf(element);
    if (now === undefined || now === wanted) return undefined;
    if (!element.isConnected) return `${describeElement(element)} left the page before its value could be read back`;
    return `${describeElement(element)} holds ${JSON.stringify(now.slice(0, 80))}, not the value given: the page did not take it as typed`;
  };
}

export function expectSelected(select: HTMLSelectElement, value: string): Readback {
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
    const target = event.target;
    if (atClick === undefined && target instanceof Node && element.contains(target)) atClick = describeElement(element);
  };
  window.addEventListener('click', onClick, true);
  return {
    renamed: () => {
      const after = element.isConnected ? describeElement(element) : undefined;
      const other = [atClick, after].find((caption) => caption !== undefined && caption !== before);
      return other === undefined ? undefined : `${before} became ${other} as it was acted on`;
    },
    stop: () => window.removeEventListener('click', onClick, true),
  };
}

function textValueOf(element: Element): string | undefined {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return element.value;
  if ((element as HTMLElement).isContentEditable) return element.textContent ?? '';
  return undefined;
}
