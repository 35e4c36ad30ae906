import { MAX_SCROLL_PAGES, ownPageTool, SCROLL_DIRECTIONS } from '@tabmcp/protocol/light';
import { type DomTool, errorResult, type ToolContext } from './dom-tool';
import { describeElement } from './elements';
import { reach } from './hit-test';
import { type WheelLanding, watchWheel } from './press-landing';
import { scrollRoom } from './scroll-regions';
import { sendTrusted } from './trusted';

/**
 * Scrolling, so that content a page renders only once it is near the window (a virtualized list of
 * 10,000 rows, an infinite feed) can be reached: a wheel turn where the pointer is over the region, as
 * a person scrolls, so the page's own scroll code renders what comes into view; the answer's changes
 * list it. A region's element scrolls itself only where the browser's input cannot be sent.
 */
const DIRECTIONS = SCROLL_DIRECTIONS;
type Direction = (typeof DIRECTIONS)[number];
/** Of the region's visible height (or width) per page scrolled: a little overlap keeps rows from falling between. */
const PAGE_SHARE = 0.8;
const MAX_PAGES = MAX_SCROLL_PAGES;
/** Elements looked at, at most, for the largest scrollable region in view. */
const REGION_LOOK_LIMIT = 20_000;

export function scrollTool(name: string, context: ToolContext): DomTool {
  const tool = ownPageTool('scroll', name);
  return {
    tool,
    isLive: () => true,
    run: async (args) => {
      const direction = (args.direction ?? 'down') as Direction;
      if (!DIRECTIONS.includes(direction)) return errorResult(`direction must be one of ${DIRECTIONS.join(', ')}.`);
      const pages = args.pages === undefined ? 1 : Number(args.pages);
      if (!Number.isInteger(pages) || pages < 1 || pages > MAX_PAGES)
        return errorResult(`pages must be a whole number from 1 to ${MAX_PAGES}.`);
      let inside: Element | undefined;
      if (args.handle !== undefined) {
        const resolved = context.handles.resolve(args.handle);
        if ('error' in resolved) return errorResult(resolved.error);
        inside = resolved.element;
      }
      const region = (inside && scrollableAround(inside, direction)) ?? largestInView(direction) ?? pageScroller();
      const vertical = direction === 'down' || direction === 'up';
      const sign = direction === 'down' || direction === 'right' ? 1 : -1;
      const extent =
        region === pageScroller() ? (vertical ? innerHeight : innerWidth) : visibleExtent(region, vertical);
      const delta = Math.round(sign * pages * PAGE_SHARE * extent);
      return context.perform(
        `scrolled ${direction} ${pages} page${pages > 1 ? 's' : ''}`,
        () => wheel(region, vertical, delta),
        {
          extra: () => ({ position: positionOf(region, vertical) }),
        },
      );
    },
  };
}

async function wheel(region: Element, vertical: boolean, delta: number): Promise<void> {
  const wholePage = region === pageScroller();
  const over = wholePage ? undefined : reach(region, false);
  const at = over?.reached ? over.at : { x: innerWidth / 2, y: innerHeight / 2 };
  // The browser scrolls a frame after the wheel turn: its scroll event is waited for, so the page's
  // own scroll code has rendered what came into view before the change report is taken.
  const scrolled = scrollEvent(region);
  const watch = watchWheel(region, wholePage);
  try {
    const outcome = await sendTrusted({
      op: 'scroll',
      at,
      deltaX: vertical ? 0 : delta,
      deltaY: vertical ? delta : 0,
    });
    if (outcome.done) {
      if (!(await scrolled.wait())) assertWheelLanded(watch.landing(), region);
      return;
    }
    scrolled.stop();
    if (outcome.sent) throw new Error(`the wheel could not be turned (${outcome.reason}); it was not turned again`);
    region.scrollBy({ top: vertical ? delta : 0, left: vertical ? 0 : delta });
  } finally {
    watch.stop();
  }
}

/**
 * Nothing scrolled: a turn over the region at its end is no error, one that went elsewhere is (press-landing.ts),
 * as the window got shorter between the aim and the turn (Chrome's debugging bar) or the page moved.
 */
function assertWheelLanded(landing: WheelLanding, region: Element): void {
  if (landing.on === 'elsewhere')
    throw new Error(
      `the wheel turned over ${describeElement(landing.what)}, not over ${describeElement(region)}: nothing scrolled, and it was not turned again`,
    );
  if (landing.on === 'unheard')
    throw new Error(
      "the wheel turn was heard nowhere in the page and nothing scrolled (its point was past the window's edge, if the window got shorter since it was aimed); it was not turned again",
    );
}

/** How long a wheel turn's scroll is waited for: a region already at its end never scrolls. */
const SCROLL_WAIT_MS = 500;

/** The region's next scroll event; `wait` says whether one came. */
function scrollEvent(region: Element): { wait(): Promise<boolean>; stop(): void } {
  const target: EventTarget = region === pageScroller() ? window : region;
  let heard = false;
  let resolve: () => void = () => {};
  const onScroll = () => {
    heard = true;
    resolve();
  };
  target.addEventListener('scroll', onScroll, { passive: true });
  const stop = () => target.removeEventListener('scroll', onScroll);
  return {
    stop,
    wait: () =>
      new Promise<boolean>((done) => {
        const timer = setTimeout(finish, SCROLL_WAIT_MS);
        function finish() {
          clearTimeout(timer);
          stop();
          // One frame more: a scroll handler that renders on the next frame (react-window) has run.
          requestAnimationFrame(() => done(heard));
        }
        resolve = finish;
        if (heard) finish();
      }),
  };
}

function pageScroller(): Element {
  return document.scrollingElement ?? document.documentElement;
}

/** The nearest box around `element` that scrolls the way asked and has room to. */
function scrollableAround(element: Element, direction: Direction): Element | undefined {
  for (let node: Element | null = element; node; node = node.parentElement) if (scrolls(node, direction)) return node;
  return undefined;
}

function largestInView(direction: Direction): Element | undefined {
  let best: Element | undefined;
  let bestArea = 0;
  const all = document.body?.getElementsByTagName('*') ?? [];
  for (let index = 0; index < all.length && index < REGION_LOOK_LIMIT; index++) {
    const element = all[index] as Element;
    if (element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1) continue;
    if (!scrolls(element, direction)) continue;
    const box = element.getBoundingClientRect();
    const area =
      Math.max(0, Math.min(box.right, innerWidth) - Math.max(box.left, 0)) *
      Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
    if (area > bestArea) {
      best = element;
      bestArea = area;
    }
  }
  return best;
}

function scrolls(element: Element, direction: Direction): boolean {
  const vertical = direction === 'down' || direction === 'up';
  const room = scrollRoom(element, vertical);
  if (room === 0) return false;
  const at = vertical ? element.scrollTop : element.scrollLeft;
  return direction === 'down' || direction === 'right' ? at < room - 1 : at > 0;
}

function visibleExtent(region: Element, vertical: boolean): number {
  return vertical ? region.clientHeight : region.clientWidth;
}

/** Where the region now is, as a person reads a scroll bar. */
function positionOf(region: Element, vertical: boolean): string {
  const at = vertical ? region.scrollTop : region.scrollLeft;
  const room = vertical ? region.scrollHeight - region.clientHeight : region.scrollWidth - region.clientWidth;
  if (room <= 0) return 'nothing to scroll';
  if (at <= 0) return 'at the start';
  if (at >= room - 1) return 'at the end';
  return `${Math.round((at / room) * 100)}% of the way`;
}

/** Frames watched after a key for the scroll it starts, and the bound where no frames come (a hidden tab). */
const SCROLL_START_FRAMES = 4;
const SCROLL_START_LIMIT_MS = 150;

/** How long a scroll a key started (End, PageDown: smooth, and long in a list of 10,000 rows) is waited for. */
const KEY_SCROLL_SETTLE_MS = 3_000;

/**
 * Runs a key press and, when it set a scroll going, waits for the browser's `scrollend` (bounded):
 * the answer then reports the rows where the scroll stopped, not the ones it passed on the way.
 */
export async function withScrollSettled(doc: Document, action: () => Promise<void>): Promise<void> {
  let scrolled = false;
  let ended = false;
  let onEnded: () => void = () => {};
  let onStarted: () => void = () => {};
  const onScroll = () => {
    scrolled = true;
    ended = false;
    onStarted();
  };
  const onScrollEnd = () => {
    ended = true;
    onEnded();
  };
  doc.addEventListener('scroll', onScroll, { capture: true, passive: true });
  doc.addEventListener('scrollend', onScrollEnd, { capture: true, passive: true });
  try {
    await action();
    // A key's smooth scroll starts in the frame after the key and fires its first scroll event in the one
    // after that (End in react-window's list: 33 ms at 60 Hz), so a few frames are watched, not one.
    if (!scrolled)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SCROLL_START_LIMIT_MS);
        let frames = 0;
        const frame = () => {
          if (++frames < SCROLL_START_FRAMES && !scrolled) requestAnimationFrame(frame);
          else resolve();
        };
        requestAnimationFrame(frame);
        onStarted = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    if (!scrolled || ended) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, KEY_SCROLL_SETTLE_MS);
      onEnded = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  } finally {
    doc.removeEventListener('scroll', onScroll, { capture: true });
    doc.removeEventListener('scrollend', onScrollEnd, { capture: true });
  }
}
