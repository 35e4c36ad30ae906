import { isTag } from './composed-tree';
import { isShown } from './text';

/**
 * The content script's side of trusted input (background/debugger/trusted-input.ts): it finds the
 * point to act at, the background sends the browser's own input there. Each answer says whether it
 * was done; a refusal (input mode synthetic, no debugger) leaves the caller to page events.
 */
type Point = { x: number; y: number };
export type TrustedRequest =
  | { op: 'hover'; at: Point }
  | { op: 'click'; at: Point; count: 1 | 2; pointerThere?: boolean }
  | { op: 'type'; text: string }
  | { op: 'key'; key: string }
  | { op: 'drag'; from: Point; to: Point }
  | { op: 'scroll'; at: Point; deltaX: number; deltaY: number }
  | { op: 'upload'; marker: string; files: string[] };

export type InputModeName = 'auto' | 'trusted' | 'synthetic';

type Answer = { done?: boolean; sent?: boolean; mode?: string; reason?: string } | undefined;

/** Whether the browser's input was sent, and whether any of it reached the page (then it is never sent again by other means). */
export type TrustedOutcome = { done: boolean; sent: boolean; reason?: string };

async function ask(request: TrustedRequest | { op: 'mode' } | { op: 'reach'; at: Point }): Promise<Answer> {
  // Outside an extension's content script (the DOM tools analysed in a bare page) there is no background to ask.
  if (typeof chrome === 'undefined' || !chrome.runtime?.sendMessage)
    return { done: false, sent: false, reason: 'no browser input here' };
  return (await chrome.runtime.sendMessage({ type: 'tabmcp/input', request }).catch(() => undefined)) as Answer;
}

/** The input mode now (the agent's --input, else the options page's). */
export async function currentInputMode(): Promise<InputModeName> {
  const mode = (await ask({ op: 'mode' }))?.mode;
  return mode === 'trusted' || mode === 'synthetic' ? mode : 'auto';
}

/**
 * In a frame of another site, what covers the frame at `at` (its own viewport's point) in a page
 * around it: each parent's script hit-tests its iframe there (background/frames.ts). Undefined when
 * nothing does, and at once in the top document, whose own hit test covers every frame it can see.
 */
export async function frameCover(at: Point): Promise<string | undefined> {
  if (window === window.top) return undefined;
  const answer = await ask({ op: 'reach', at });
  return answer?.done === true ? undefined : (answer?.reason ?? 'no answer from the extension');
}

/**
 * Sends the browser's own input. `sent` is false only when nothing reached the page (input mode
 * synthetic, no debugger): a caller may then act with page events instead, and only then.
 */
export async function sendTrusted(request: TrustedRequest): Promise<TrustedOutcome> {
  const answer = await ask(request);
  if (answer?.done === true) return { done: true, sent: true };
  // No answer at all (the message was lost with the worker) may still have reached the page.
  return { done: false, sent: answer?.sent !== false, reason: answer?.reason ?? 'no answer from the extension' };
}

/**
 * Where a person would point at the element, in the top viewport's CSS pixels: scrolled into view,
 * its centre, offset by every frame it sits in. Undefined when it has no box to point at.
 */
export function pointOf(element: Element, scroll = true): Point | undefined {
  if (scroll) (element as HTMLElement).scrollIntoView?.({ block: 'center', inline: 'center' });
  const box = element.getBoundingClientRect();
  if ((box.width === 0 || box.height === 0) && !isShown(element)) return undefined;
  let x = box.left + box.width / 2;
  let y = box.top + box.height / 2;
  let view = element.ownerDocument.defaultView;
  while (view && view !== window.top) {
    const frame = view.frameElement;
    if (!frame) break;
    const frameBox = frame.getBoundingClientRect();
    x += frameBox.left + frame.clientLeft;
    y += frameBox.top + frame.clientTop;
    view = frame.ownerDocument.defaultView;
  }
  return { x, y };
}

/** Text boxes whose page filters as one types: comboboxes, autocompletes, inputs with a datalist. */
export function filtersAsTyped(element: Element): boolean {
  return (
    element.getAttribute('role') === 'combobox' ||
    element.hasAttribute('aria-autocomplete') ||
    (isTag(element, 'input') && element.list !== null)
  );
}
