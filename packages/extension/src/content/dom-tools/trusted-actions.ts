import type { CallToolResult } from '@tabmcp/protocol';
import type { Action } from './act';
import { errorResult, type ToolContext } from './dom-tool';
import { currentInputMode, filtersAsTyped, pointOf, sendTrusted } from './trusted';

/**
 * Actions in the browser's own input (docs/dom-tools.md, "Trusted input"). With `--input auto`,
 * only where page events fall short: `:hover` needs a real pointer, a double-click its timing,
 * type-ahead boxes a keystroke per character, drags and uploads the browser itself. With
 * `trusted`, every action; with `synthetic`, none (drag and upload then refuse).
 */
const NEEDS_TRUSTED = new Set<Action>(['dblclick', 'hover', 'drag', 'upload']);

export async function usesTrusted(action: Action, element: Element): Promise<boolean> {
  const mode = await currentInputMode();
  if (mode === 'synthetic') return false;
  if (mode === 'trusted') return true;
  return NEEDS_TRUSTED.has(action) || (action === 'fill' && filtersAsTyped(element));
}

export async function trustedClick(element: Element, count: 1 | 2): Promise<boolean> {
  const at = pointOf(element);
  return at !== undefined && (await sendTrusted({ op: 'click', at, count })).done;
}

export async function trustedHover(element: Element): Promise<boolean> {
  const at = pointOf(element);
  return at !== undefined && (await sendTrusted({ op: 'hover', at })).done;
}

export async function trustedPress(element: Element, key: string): Promise<boolean> {
  (element as HTMLElement).focus?.({ preventScroll: true });
  return (await sendTrusted({ op: 'key', key })).done;
}

/** Selects the field's text and types over it, key by key, as a person replaces a value. */
export async function trustedFill(element: Element, value: string, submit: boolean): Promise<boolean> {
  const html = element as HTMLElement;
  html.focus({ preventScroll: true });
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) element.select();
  else {
    const range = element.ownerDocument.createRange();
    range.selectNodeContents(element);
    element.ownerDocument.getSelection()?.removeAllRanges();
    element.ownerDocument.getSelection()?.addRange(range);
  }
  const typed = await sendTrusted(value ? { op: 'type', text: value } : { op: 'key', key: 'Backspace' });
  if (!typed.done) return false;
  if (submit) await sendTrusted({ op: 'key', key: 'Enter' });
  return true;
}

export async function dragTo(
  element: Element,
  target: Element,
  done: string,
  context: ToolContext,
): Promise<CallToolResult> {
  if ((await currentInputMode()) === 'synthetic') return errorResult(needsTrusted('drag'));
  return context.perform(done, async () => {
    // The drop target first, then the source: the source is where the drag starts, so it must be in view.
    pointOf(target);
    const from = pointOf(element);
    const to = pointOf(target, false);
    if (!from || !to) throw new Error('the element or its drop target has no box on the screen');
    const dragged = await sendTrusted({ op: 'drag', from, to });
    if (!dragged.done) throw new Error(`the drag could not be made: ${dragged.reason}`);
  });
}

export async function uploadFile(
  element: Element,
  path: string,
  done: string,
  context: ToolContext,
): Promise<CallToolResult> {
  if ((await currentInputMode()) === 'synthetic') return errorResult(needsTrusted('upload'));
  return context.perform(done, async () => {
    const marker = crypto.randomUUID().replaceAll('-', '');
    element.setAttribute('data-tabmcp-upload', marker);
    try {
      const uploaded = await sendTrusted({ op: 'upload', marker, files: [path] });
      if (!uploaded.done) throw new Error(`the file could not be given to the page: ${uploaded.reason}`);
    } finally {
      element.removeAttribute('data-tabmcp-upload');
    }
  });
}

function needsTrusted(action: string): string {
  return `${action} needs the browser's own input, and tabmcp runs with --input synthetic (no debugger): restart it with --input auto, or ask the user to do it.`;
}
