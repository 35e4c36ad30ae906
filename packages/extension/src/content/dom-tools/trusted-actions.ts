import type { CallToolResult } from '@tabmcp/protocol';
import { clickInTurns } from './click-in-turns';
import { composedParent, isTag } from './composed-tree';
import { errorResult, type ToolContext } from './dom-tool';
import { describeElement } from './elements';
import { type Point, reach, reachAt } from './hit-test';
import { hiddenRoot } from './hover';
import { doubleClick, hover, pageTurn } from './input';
import { type Landing, watchPress } from './press-landing';
import { isShown } from './text';
import { currentInputMode, filtersAsTyped, frameCover, pointOf, sendTrusted } from './trusted';

/**
 * Actions as a person makes them (docs/dom-tools.md, "Trusted input"): with `--input auto` (the
 * default) and `trusted`, pointer actions and key presses are the browser's own input, so they carry
 * user activation (a popup opens, a video plays), move focus and scroll as a person's do. The input
 * is chosen before acting, never after: page events stand in only when the browser's input could not
 * be sent at all (`--input synthetic`, or no debugger for the tab), and an action is never made twice.
 * Filling a plain field stays the editing machinery's (fields.ts): typing key by key goes only to
 * fields whose page filters as one types.
 */
/**
 * Whether a fill types key by key: every fill under `trusted`; under `auto`, fields that filter as
 * one types and editors (contenteditable), whose own code keeps the text and ignores a DOM edit.
 */
export async function typesKeyByKey(element: Element): Promise<boolean> {
  const mode = await currentInputMode();
  if (mode === 'synthetic') return false;
  return mode === 'trusted' || filtersAsTyped(element) || (element as HTMLElement).isContentEditable;
}

/** Where a pointer action goes, found before acting (hit-test.ts); a refusal names what is in the way. */
export type Aim =
  /** `called`: how the target read when aimed at, to know it again if the page re-renders it. */
  | { reached: true; target: Element; on: Element; at: Point; local: Point; called: string }
  | { reached: false; why: string };

export function aimAt(target: Element, scroll = true): Aim {
  const found = reach(target, scroll);
  return found.reached
    ? { reached: true, target, on: found.on, at: found.at, local: found.local, called: describeElement(target) }
    : found;
}

/**
 * A click (count 2: a double-click) at the aimed point. The pointer moves there first and the point is
 * hit-tested again: a page that slides something over the control as the pointer arrives gets no press.
 * Throws, with what happened, when the click could not be made; never sends it a second time.
 */
export async function pointerClick(aim: Aim & { reached: true }, count: 1 | 2): Promise<void> {
  await assertFrameReached(aim, 'nothing was pressed');
  if ((await currentInputMode()) !== 'synthetic') {
    const moved = await sendTrusted({ op: 'hover', at: aim.at });
    if (moved.done) {
      await followTo(aim, 'as the pointer arrived; nothing was pressed');
      let landing = await press(aim, count);
      if (landing.on === 'outside the window') {
        // The window changed size between the aim and the press (Chrome's debugging bar where the attach's wait for
        // it, background/debugger/debugging-bar.ts, did not expect it; the person resizing the window): the press went
        // past the window's edge, to the page's root, and no control got it. The control is aimed at where it is now and pressed there, once more at most.
        await followTo(aim, 'after the window changed size; nothing was pressed');
        landing = await press(aim, count);
      }
      if (landing.on === 'outside the window')
        throw new Error(`the window changed size as ${describeElement(aim.target)} was pressed: no control got it`);
      if (landing.on === 'elsewhere' && !reRendered(aim, landing.what))
        throw new Error(
          `${describeElement(landing.what)} was where ${describeElement(aim.target)} had been as the press landed (the page moved): it got the click`,
        );
      // Pressed and released together (background/debugger/trusted-input.ts), so this is rare; it got the press,
      // which may be what it acts on, so it is not pressed again.
      if (landing.on === 'released past the edge')
        throw new Error(
          `the window changed size between the press and the release: ${describeElement(aim.target)} got the press, and the release landed past the window's edge, so no click; it was not pressed again`,
        );
      return;
    }
    if (moved.sent) throw new Error(`the pointer could not be moved to it (${moved.reason}); nothing was pressed`);
  }
  // Page events: input mode synthetic, or no debugger for this tab (nothing was sent).
  assertStillReached(aim, 'nothing was pressed');
  if (count === 2) doubleClick(aim.target);
  else await clickInTurns(aim.target);
}

/**
 * With the pointer at the aimed point: the control is still there, or aimed at where it is now, as a
 * person's hand follows it (a sort button that grows its arrow under the pointer; a control the
 * window's change of size left past its edge, scrolled back into view). Throws when nothing reaches it.
 */
async function followTo(aim: Aim & { reached: true }, outcome: string): Promise<void> {
  if (reachAt(aim.on, aim.local) !== true && aim.on.isConnected) await reaim(aim);
  assertStillReached(aim, outcome);
}

/** The press at the aimed point (the pointer is there), and where it landed (press-landing.ts). */
async function press(aim: Aim & { reached: true }, count: 1 | 2): Promise<Landing> {
  const watch = watchPress(aim.on);
  try {
    const clicked = await sendTrusted({ op: 'click', at: aim.at, count, pointerThere: true });
    if (!clicked.done)
      throw new Error(
        `the click could not be completed (${clicked.reason}); it may have reached the page, so it was not made again`,
      );
    return watch.landing();
  } finally {
    watch.stop();
  }
}

/** Aims again at the control where it now is (scrolled into view if it left it) and moves the pointer there. */
async function reaim(aim: Aim & { reached: true }): Promise<void> {
  const again = reach(aim.on);
  if (!again.reached) return;
  aim.at = again.at;
  aim.local = again.local;
  sentOnce(await sendTrusted({ op: 'hover', at: aim.at }), 'moving the pointer');
}

/** The control re-rendered where it was (a new node that reads the same) took the press: it is the control. */
function reRendered(aim: Aim & { reached: true }, hit: Element): boolean {
  if (aim.on.isConnected) return false;
  for (let node: Element | null = hit; node; node = composedParent(node))
    if (describeElement(node) === aim.called) return true;
  return false;
}

/** A hover (`:hover` needs the browser's pointer); page events where it cannot be sent. */
export async function pointerHover(aim: Aim & { reached: true }): Promise<void> {
  await assertFrameReached(aim, 'the pointer was not moved');
  if ((await currentInputMode()) !== 'synthetic') {
    const moved = await sendTrusted({ op: 'hover', at: aim.at });
    if (moved.done) return;
    if (moved.sent) throw new Error(`the pointer could not be moved to it (${moved.reason})`);
  }
  hover(aim.target);
}

/**
 * Moves the browser's pointer over the shown box around a control that its page reveals on `:hover`
 * (a todo's "×"): false when there is no browser pointer (nothing was sent), else true, and the
 * control shows now if the page's hover rule applies.
 */
export async function pointOverRow(element: Element): Promise<boolean> {
  if ((await currentInputMode()) === 'synthetic') return false;
  const row = composedParent(hiddenRoot(element, isShown));
  if (!row) return false;
  const over = reach(row);
  if (!over.reached) return false;
  return sentOnce(await sendTrusted({ op: 'hover', at: over.at }), 'moving the pointer over its row');
}

/** Page events on a control no pointer can reach now (hover-only, with no browser pointer to hover with). */
export async function syntheticPointer(element: Element, action: 'click' | 'dblclick' | 'hover'): Promise<void> {
  if (action === 'hover') hover(element);
  else if (action === 'dblclick') doubleClick(element);
  else await clickInTurns(element);
}

/** In a frame of another site, trusted input or page events alike: refused where a page around the frame covers it. */
async function assertFrameReached(aim: Aim & { reached: true }, outcome: string): Promise<void> {
  const cover = await frameCover(aim.at);
  if (cover) throw new Error(`${describeElement(aim.target)} is out of reach: ${cover}; ${outcome}`);
}

function assertStillReached(aim: Aim & { reached: true }, outcome: string): void {
  const now = reachAt(aim.on, aim.local);
  if (now === true) return;
  // Re-rendered where it was (a virtual list renders its rows anew as it scrolls): the same control,
  // as a person sees it, is there now; page events go to it.
  if (now && !aim.on.isConnected && describeElement(now) === aim.called) {
    aim.target = now;
    aim.on = now;
    return;
  }
  const cover = now ? describeElement(now) : 'nothing a pointer reaches';
  throw new Error(`${cover} came over ${describeElement(aim.target)} ${outcome}`);
}

/**
 * A key pressed on the focused element with the browser's own input. False when none could be sent
 * (page events may stand in); throws when some was sent and a later step failed.
 */
export async function trustedPress(element: Element, key: string): Promise<boolean> {
  (element as HTMLElement).focus?.({ preventScroll: true });
  return sentOnce(await sendTrusted({ op: 'key', key }), `pressing ${key}`);
}

/** Selects the field's text and types over it, key by key, as a person replaces a value. */
export async function trustedFill(element: Element, value: string, submit: boolean): Promise<boolean> {
  const html = element as HTMLElement;
  html.focus({ preventScroll: true });
  if (isTag(element, 'input') || isTag(element, 'textarea')) element.select();
  else {
    const range = element.ownerDocument.createRange();
    range.selectNodeContents(element);
    element.ownerDocument.getSelection()?.removeAllRanges();
    element.ownerDocument.getSelection()?.addRange(range);
    // An editor takes the selection from its selectionchange event, which comes after this task.
    await pageTurn();
  }
  const typing = value ? ({ op: 'type', text: value } as const) : ({ op: 'key', key: 'Backspace' } as const);
  if (!sentOnce(await sendTrusted(typing), 'typing')) return false;
  if (submit) sentOnce(await sendTrusted({ op: 'key', key: 'Enter' }), 'pressing Enter');
  return true;
}

/** True when done; false when nothing was sent; throws when input went out and then failed. */
function sentOnce(outcome: { done: boolean; sent: boolean; reason?: string }, what: string): boolean {
  if (outcome.done) return true;
  if (!outcome.sent) return false;
  throw new Error(`${what} failed part way (${outcome.reason}); it was not repeated`);
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
    const source = reach(element);
    if (!source.reached) throw new Error(`${source.why}; nothing was dragged`);
    const to = pointOf(target, false);
    if (!to) throw new Error('the drop target has no box on the screen');
    const watch = watchPress(source.on);
    let landing: Landing;
    try {
      const dragged = await sendTrusted({ op: 'drag', from: source.at, to });
      if (!dragged.done) throw new Error(`the drag could not be made: ${dragged.reason}`);
      landing = watch.landing();
    } finally {
      watch.stop();
    }
    assertDragLanded(landing, element, target);
  });
}

/**
 * A drag whose press or release the window's change of size sent past its edge (press-landing.ts) is said so,
 * never `done`: it is not made again, as the page may have acted on part of it.
 */
function assertDragLanded(landing: Landing, source: Element, target: Element): void {
  const what = describeElement(source);
  if (landing.on === 'outside the window')
    throw new Error(
      `the window changed size as ${what} was pressed to drag it: the press landed past its edge, and nothing was dragged`,
    );
  if (landing.on === 'elsewhere')
    throw new Error(
      `${describeElement(landing.what)} was where ${what} had been as the drag started (the page moved): it got the press`,
    );
  if (landing.on === 'released past the edge')
    throw new Error(
      `the window changed size during the drag: ${what} was released past its edge, not on ${describeElement(target)}`,
    );
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
