import { type ActivityWatch, watchActivity } from '../page-activity';
import { type RenderContext, renderMarkdown } from './render';
import { currentInputMode } from './trusted';

/**
 * `--input auto` (docs/dom-tools.md, "Trusted input"): page events first, and the browser's own
 * input when they had no effect. A library may listen on an inner element a dispatched click never
 * reaches (AG Grid's header label), or ignore events that are not trusted; a person's click lands
 * there all the same. "No effect" is judged once the timers and requests the synthetic events
 * started have ended (1.5 s at most) and two more frames were painted (100 ms at most, for a tab
 * that paints none): the page read the agent would get is the same (a class toggled as the button is
 * pressed is no effect; a row order, a flag such as `sorted`, a menu that opened is), no navigation
 * began, and the URL and the element's value and checked state are unchanged. Native controls and links are never retried: their default action
 * changes a property no observer sees (a checkbox's `checked`), and a second activation would undo it.
 */
const FRAMES_BOUND_MS = 100;
/** Follow-ups are timers of 500 ms at most (page-activity) and requests: waited for up to this long. */
const FOLLOW_UPS_BOUND_MS = 1_500;
const NATIVE = new Set(['input', 'select', 'textarea', 'option', 'label', 'button', 'summary', 'a']);

/** Runs `synthetic`; when it had no effect and the input mode is auto, runs `trusted` once. */
export async function syntheticOrTrusted(
  element: Element,
  context: RenderContext,
  synthetic: () => void | Promise<void>,
  trusted: () => Promise<boolean>,
): Promise<void> {
  if (!retryable(element) || (await currentInputMode()) !== 'auto') {
    await synthetic();
    return;
  }
  // Scrolled first, as the synthetic click does: what the page does on scroll (a virtual grid
  // renders rows) is no effect of the click. Not focused: the press focuses only when the page lets
  // it (a menu's option keeps the focus in its box by cancelling the mousedown).
  const scrolling = watchActivity();
  (element as HTMLElement).scrollIntoView?.({ block: 'center', inline: 'nearest' });
  scrolling.close();
  await followUpsDone(scrolling);
  scrolling.stop();
  await frames(1);
  const effect = watchEffect(element, context);
  await synthetic();
  if (await effect.seen()) return;
  await trusted();
}

function retryable(element: Element): boolean {
  if (NATIVE.has(element.localName) || element.closest('label, a[href], button') !== null) return false;
  return !(element as HTMLElement).isContentEditable;
}

interface EffectWatch {
  /** Waits two frames (bounded), then says whether anything the page did was seen. */
  seen(): Promise<boolean>;
}

function watchEffect(element: Element, context: RenderContext): EffectWatch {
  const doc = element.ownerDocument;
  const state = () =>
    [
      location.href,
      (element as HTMLInputElement).value,
      (element as HTMLInputElement).checked,
      renderMarkdown(doc.body ?? doc.documentElement, context),
    ] as const;
  const before = state();
  const activity = watchActivity();
  return {
    seen: async () => {
      activity.close();
      // The timers and requests it started are waited for: their result is its effect.
      await followUpsDone(activity);
      activity.stop();
      await frames(2);
      const after = state();
      return activity.navigating() !== undefined || before.some((value, index) => value !== after[index]);
    },
  };
}

function followUpsDone(activity: ActivityWatch): Promise<void> {
  if (activity.pending() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, FOLLOW_UPS_BOUND_MS);
    const stop = activity.onReport(() => {
      if (activity.pending() === 0 || activity.navigating() !== undefined) done();
    });
  });
}

/** Resolves after `count` painted frames, or FRAMES_BOUND_MS in a tab that paints none (hidden). */
function frames(count: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FRAMES_BOUND_MS);
    const next = (left: number) =>
      requestAnimationFrame(() => {
        if (left > 1) next(left - 1);
        else {
          clearTimeout(timer);
          resolve();
        }
      });
    next(count);
  });
}
