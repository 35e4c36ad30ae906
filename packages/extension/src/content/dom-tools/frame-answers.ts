import type { CallToolResult, Tool } from '@tabmcp/protocol';
import { waitUntil, withTimeout } from '@tabmcp/protocol/light';
import { composedQueryAll, frameDocument } from './composed-tree';
import { onFrameChanged } from './frame-link';
import { isShown } from './text';

/**
 * What an action's answer says of the page's frames of another origin (docs/dom-tools.md, "Shadow
 * DOM and frames"): which frames are asked, how long the answer waits for them, and their tools'
 * change said by the page's names.
 */

/** How long an answer waits for the page's frames to say their tools after an action (each answers in milliseconds). */
const FRAME_TOOLS_WAIT_MS = 1_000;
/** How long an answer waits for a frame the action brought in to load and start tabmcp's script. */
const FRAME_LOAD_WAIT_MS = 3_000;

/**
 * Asks the frames for their tools (`ask`: true when the list changed), and again each time a frame
 * says its script started, while `loading` holds (a frame the action brought in), within the bounds.
 * Listened to from before the first question: a frame that starts meanwhile is not missed.
 */
export async function askWhileLoading(ask: () => Promise<boolean>, loading: () => boolean): Promise<boolean> {
  // A frame slower than the bound: its tools are published when it answers (the newest update wins).
  const within = (asked: Promise<boolean>) =>
    withTimeout(asked, { timeoutMs: FRAME_TOOLS_WAIT_MS, onTimeout: () => false });
  let heard = false;
  let wake: (() => void) | undefined;
  const stop = onFrameChanged(() => {
    heard = true;
    wake?.();
  });
  try {
    let changed = await within(ask());
    const until = performance.now() + FRAME_LOAD_WAIT_MS;
    while (loading() && performance.now() < until) {
      if (!heard)
        await waitUntil<void>(
          (done) => {
            wake = done;
            return () => {
              wake = undefined;
            };
          },
          { timeoutMs: until - performance.now(), onTimeout: () => undefined },
        );
      if (!heard) break;
      heard = false;
      changed = (await within(ask())) || changed;
    }
    return changed;
  } finally {
    stop();
  }
}

/** The tools an action added and removed, by name; undefined when the list kept its names. */
export function toolsChange(before: string[], after: Tool[]): { added?: string[]; removed?: string[] } | undefined {
  const names = after.map((tool) => tool.name);
  const added = names.filter((name) => !before.includes(name));
  const removed = before.filter((name) => !names.includes(name));
  if (!added.length && !removed.length) return undefined;
  return { ...(added.length ? { added } : {}), ...(removed.length ? { removed } : {}) };
}

/**
 * A frame's answer with the change of the page's list in place of its own `tools`, which named the
 * frame's tools as the frame does (`fill_name_on_card` where the page lists `fill_name_on_card_2`).
 * An answer that is no JSON object (a refusal in words) is left as it is.
 */
export function withToolsChange(result: CallToolResult, tools: ReturnType<typeof toolsChange>): CallToolResult {
  const first = result.content[0];
  const text = first?.type === 'text' ? String(first.text) : undefined;
  let answer: unknown;
  try {
    answer = text?.startsWith('{') ? JSON.parse(text) : undefined;
  } catch {
    answer = undefined;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return result;
  const { tools: _framesOwn, ...rest } = answer as Record<string, unknown>;
  return { ...result, content: [{ type: 'text', text: JSON.stringify(tools ? { ...rest, tools } : rest) }] };
}

/** The iframes of another origin a person sees: their own scripts derive their tools (frame-tools.ts). */
export function otherOriginFrames(doc: Document): Element[] {
  return composedQueryAll(doc, 'iframe, frame').filter(
    (frame) => (!frameDocument(frame) || loadingAnotherOrigin(frame)) && isShown(frame),
  );
}

/**
 * An iframe just added still shows its first, empty document, of this page's origin, while the page
 * of another origin it was given loads: a frame of another origin all the same, asked for its tools
 * (it answers "loading" until its script runs), so an action that brought it in waits for them.
 */
function loadingAnotherOrigin(frame: Element): boolean {
  if (frameDocument(frame)?.URL !== 'about:blank') return false;
  const src = frame.getAttribute('src');
  if (!src) return false;
  try {
    const url = new URL(src, frame.ownerDocument.baseURI);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== frame.ownerDocument.defaultView?.origin
    );
  } catch {
    return false;
  }
}
