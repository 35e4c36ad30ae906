import type { CallToolResult, DescribedCall, Tool } from '@tabmcp/protocol';
import { FRAME_ASK, type FrameAnswer, type FrameRead, type FrameRequest } from '../../frame-messages';
import { errorResult } from './dom-tool';
import type { Handles } from './handles';

/**
 * This document's side of its iframes of another site (docs/dom-tools.md, "Shadow DOM and
 * frames"): their content script is asked through the background, which applies the frame's site
 * policy and names its origin. Handles of the frame's controls start with the iframe's handle here
 * (`k512.b301`), so an action on one comes back to this iframe and is passed on.
 */

/**
 * Where an iframe is below this script's window, as indexes in each window's `frames` (the frame's
 * own script finds its index the same way): one step for an iframe of this document, more for one
 * inside a same-origin frame read inline. An iframe in a shadow root is in no `frames` list: its
 * last step is its address instead (`src`), which the background matches among the frames that
 * have no index (frameAt). Undefined before it has a window (not loaded).
 */
function pathOf(frame: Element): { path: number[]; src?: string } | undefined {
  const path: number[] = [];
  let child = (frame as HTMLIFrameElement).contentWindow;
  let owner = frame.ownerDocument.defaultView;
  let src: string | undefined;
  while (child && owner) {
    const index = indexIn(owner, child);
    if (index < 0) {
      // Only the iframe itself may stand unlisted: a same-origin frame around it in a shadow root too is not told.
      if (path.length > 0 || src !== undefined) return undefined;
      src = addressOf(frame);
      if (src === undefined) return undefined;
    } else path.unshift(index);
    if (owner === window) return { path, ...(src === undefined ? {} : { src }) };
    child = owner;
    owner = owner.frameElement?.ownerDocument.defaultView ?? null;
  }
  return undefined;
}

/** The address an iframe was given, resolved: what the browser reports its frame's URL as, unless it navigated. */
export function addressOf(frame: Element): string | undefined {
  try {
    return new URL(frame.getAttribute('src') ?? '', frame.ownerDocument.baseURI).href;
  } catch {
    return undefined;
  }
}

/**
 * Why an iframe has no path: it has not loaded, or it stands in a shadow root inside a same-origin
 * frame that stands in one too, where no `frames` list holds either.
 */
function unlisted(frame: Element): { refused: 'loading' | 'unreachable'; reason: string } {
  if ((frame as HTMLIFrameElement).contentWindow !== null)
    return { refused: 'unreachable', reason: 'neither it nor the frame around it is in a frames list' };
  return { refused: 'loading', reason: 'it has not loaded' };
}

/** The index of `child` in `owner.frames` (-1 when absent); a cross-origin window allows this much. */
export function indexIn(owner: Window, child: Window): number {
  for (let index = 0; index < owner.frames.length; index++) if (owner.frames[index] === child) return index;
  return -1;
}

async function ask(frame: Element, request: FrameRequest): Promise<FrameAnswer> {
  const where = pathOf(frame);
  const guessed = originFromSrc(frame);
  if (where === undefined) return { origin: guessed, ...unlisted(frame) };
  if (typeof chrome === 'undefined' || !chrome.runtime?.sendMessage)
    return { origin: guessed, refused: 'unreachable', reason: 'no extension here' };
  const answer = (await chrome.runtime.sendMessage({ type: FRAME_ASK, ...where, request }).catch(() => undefined)) as
    | FrameAnswer
    | undefined;
  if (!answer) return { origin: guessed, refused: 'unreachable', reason: 'no answer from the extension' };
  // The browser named no frame there (not loaded, or failed to): the iframe's own address names it.
  return answer.origin === 'unknown' ? { ...answer, origin: guessed } : answer;
}

/** Listeners for `changed`: a frame of this document changed its tools (one DomToolServer per page listens). */
const frameChangeListeners = new Set<() => void>();

export function onFrameChanged(listener: () => void): () => void {
  frameChangeListeners.add(listener);
  return () => frameChangeListeners.delete(listener);
}

/** The background says a frame of this document changed its tools (frame-service.ts). */
export function frameChanged(): void {
  for (const listener of frameChangeListeners) listener();
}

/** How a frame of another site reads where it stands: its origin and handle, then its page, or why it is not read. */
export async function readFrame(frame: Element, handles: Pick<Handles, 'of'>, main: boolean, limit: number) {
  const handle = handles.of(frame);
  const outcome = await ask(frame, { op: 'read', prefix: `${handle}.`, main, limit });
  if ('answer' in outcome) {
    const { text } = outcome.answer as FrameRead;
    return `\n[frame ${outcome.origin} ${handle}]\n${text}\n[end of frame ${outcome.origin}]\n`;
  }
  return `\n[frame ${outcome.origin} (${whyNotRead(outcome)})]\n`;
}

/** A frame of another site as a read that does not ask it says it is there (a change report's lines). */
export function frameLine(frame: Element, handles: Pick<Handles, 'of'>): string {
  return `\n[frame ${originFromSrc(frame)} ${handles.of(frame)}]\n`;
}

/**
 * A call run by a frame's own script: `act` on a handle of a control in it, or one of its own tools.
 * `what` names it in a refusal (the handle, or the tool).
 */
export async function callInFrame(
  frame: Element,
  name: string,
  args: Record<string, unknown>,
  what: string,
): Promise<CallToolResult> {
  const outcome = await ask(frame, { op: 'call', name, args });
  if ('refused' in outcome)
    return errorResult(`${what} is in a frame of ${outcome.origin}, ${whyNotRead(outcome)}; nothing was done.`);
  const result = outcome.answer as Partial<CallToolResult> | undefined;
  if (!Array.isArray(result?.content))
    return errorResult(`The frame of ${outcome.origin} gave no answer; it may have acted.`);
  return result as CallToolResult;
}

/**
 * What a call run by a frame's script would act on, as that script reads it: the person is asked
 * before a Pay button in a payment frame as before one in the page.
 */
export async function describeInFrame(
  frame: Element,
  name: string,
  args: Record<string, unknown>,
): Promise<DescribedCall> {
  const outcome = await ask(frame, { op: 'describe', name, args });
  const described = 'answer' in outcome ? (outcome.answer as Partial<DescribedCall> | undefined) : undefined;
  // The background checks the facts' shape (confirm-gate.ts); a frame that said nothing leaves none.
  return described?.derived === true ? (described as DescribedCall) : { derived: true };
}

/**
 * A frame's own derived tools and its origin; `loading` while its document or script is not there
 * yet (it says so as it starts: frameChanged); undefined when it is not asked (a site not allowed) or did not answer.
 */
export async function toolsOfFrame(
  frame: Element,
  handles: Pick<Handles, 'of'>,
): Promise<{ origin: string; tools: Tool[] } | 'loading' | undefined> {
  const outcome = await ask(frame, { op: 'tools', prefix: `${handles.of(frame)}.` });
  if ('refused' in outcome) return outcome.refused === 'loading' ? 'loading' : undefined;
  const tools = (outcome.answer as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) ? { origin: outcome.origin, tools: tools as Tool[] } : undefined;
}

function whyNotRead(refusal: Extract<FrameAnswer, { refused: string }>): string {
  if (refusal.refused === 'unreachable' || refusal.refused === 'loading')
    return `not read: ${refusal.reason ?? 'tabmcp cannot reach it'}`;
  const state = refusal.refused === 'blocked' ? 'blocked' : 'not allowed yet';
  return `site ${refusal.site ?? refusal.origin} ${state}: not read; the user allows a site in the tabmcp popup`;
}

function originFromSrc(frame: Element): string {
  try {
    const origin = new URL(frame.getAttribute('src') ?? '', frame.ownerDocument.baseURI).origin;
    return origin === 'null' ? 'with no address' : origin;
  } catch {
    return 'with no address';
  }
}
