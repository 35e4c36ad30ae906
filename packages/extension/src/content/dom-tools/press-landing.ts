import { isElement } from './composed-tree';
import { landsOn } from './hit-test';

/**
 * Where the browser's press of a click or a drag landed, and its release, heard from its own trusted pointer
 * (or mouse) events in the control's window; and where a wheel turn landed (`watchWheel`). The point is aimed at before the press goes out, and the
 * window can change size in between: Chrome shows its "started debugging this browser" bar when a call
 * attaches the debugger, and the bar shortens every tab's window a moment later (100 ms and more on a
 * busy machine), so a control near the window's bottom edge is then past it. Listening only: a page's
 * own listeners may come first (the content script starts after the page's), so a press is never held
 * back, only known for what it was.
 */
export type Landing =
  | { on: 'target' }
  /** Pressed past the window's edge: only the page's root gets such a press (as one on its margin); no control did. */
  | { on: 'outside the window' }
  | { on: 'elsewhere'; what: Element }
  /**
   * Pressed on the target, released past the window's edge: the window got shorter in between, and the target
   * got no click. A release on another element is no miss: a control that acts on the press (a select opening its
   * list over itself) has the page changed under the pointer by then.
   */
  | { on: 'released past the edge' }
  /** No trusted press heard in the control's window: a page listener before ours stopped it, or it went to another frame. */
  | { on: 'unheard' };

/** Where a wheel turn landed; the browser sends none into the page for a point past the window's edge (`unheard`). */
export type WheelLanding = { on: 'target' } | { on: 'elsewhere'; what: Element } | { on: 'unheard' };

const PRESS_EVENTS = ['pointerdown', 'mousedown'] as const;
const RELEASE_EVENTS = ['pointerup', 'mouseup'] as const;

/** Starts listening for the next press and release in the target's window; `stop` before the answer is used. */
export function watchPress(target: Element): { landing(): Landing; stop(): void } {
  const view = target.ownerDocument.defaultView ?? window;
  let landing: Landing = { on: 'unheard' };
  let released = false;
  const hitOf = (event: Event) => hitIn(view, event);
  const onPress = (event: Event) => {
    if (!event.isTrusted || landing.on !== 'unheard') return;
    const hit = hitOf(event);
    if (hit === undefined) landing = { on: 'outside the window' };
    else if (hit) landing = landsOn(target, hit) ? { on: 'target' } : { on: 'elsewhere', what: hit };
  };
  const onRelease = (event: Event) => {
    if (!event.isTrusted || landing.on !== 'target' || released) return;
    released = true;
    if (hitOf(event) === undefined) landing = { on: 'released past the edge' };
  };
  const stop = listen(view, [
    ...PRESS_EVENTS.map((type) => [type, onPress] as const),
    ...RELEASE_EVENTS.map((type) => [type, onRelease] as const),
  ]);
  return { landing: () => landing, stop };
}

/** Starts listening for the next wheel turn in the region's window (all of it for the page's own scroller). */
export function watchWheel(region: Element, wholePage: boolean): { landing(): WheelLanding; stop(): void } {
  const view = region.ownerDocument.defaultView ?? window;
  let landing: WheelLanding = { on: 'unheard' };
  const onWheel = (event: Event) => {
    if (!event.isTrusted || landing.on !== 'unheard') return;
    const hit = hitIn(view, event);
    if (hit) landing = wholePage || landsOn(region, hit) ? { on: 'target' } : { on: 'elsewhere', what: hit };
  };
  return { landing: () => landing, stop: listen(view, [['wheel', onWheel]]) };
}

/** What the event hit: undefined past the window's edge, null when it names no element. */
function hitIn(view: Window, event: Event): Element | null | undefined {
  const { clientX, clientY } = event as MouseEvent;
  if (clientX < 0 || clientY < 0 || clientX >= view.innerWidth || clientY >= view.innerHeight) return undefined;
  // The innermost element this world may see (a closed shadow root's host stands for its inside: landsOn knows).
  const first = event.composedPath()[0] as Node | undefined;
  return isElement(first) ? first : (first?.parentElement ?? null);
}

/** Listens in `view`, passively, at the window's capture phase; the result stops listening. */
function listen(view: Window, listeners: Array<readonly [string, (event: Event) => void]>): () => void {
  for (const [type, listener] of listeners) view.addEventListener(type, listener, { capture: true, passive: true });
  return () => {
    for (const [type, listener] of listeners) view.removeEventListener(type, listener, { capture: true });
  };
}
