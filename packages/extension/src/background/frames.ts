import { siteOf } from '@tabmcp/hub';
import { errorMessage, type Logger, type SiteAccess } from '@tabmcp/protocol';
import { withTimeout } from '@tabmcp/protocol/light';
import {
  FRAME_CHANGED,
  FRAME_SERVE,
  type FrameAnswer,
  FrameAsk,
  type FrameOffset,
  type FrameServe,
  type Point,
} from '../frame-messages';

/** A read of a frame answers within this; an action may wait for its page to settle (settle.ts) far longer. */
const READ_TIMEOUT_MS = 5_000;
const ACT_TIMEOUT_MS = 60_000;
const OFFSET_TIMEOUT_MS = 2_000;
/** Frames nested deeper than this are not pointed into (a page nesting itself forever). */
const MAX_DEPTH = 8;

interface FrameContext {
  siteAccess(url: string | undefined): SiteAccess;
  /** Resolves once the hub restored its site decisions. */
  restored: Promise<unknown>;
  log: Logger;
}

/**
 * Relays a document's requests to its own iframes of another site (docs/dom-tools.md, "Shadow DOM
 * and frames"): only to a direct child of the asking frame, only once the child's site is allowed
 * (the hub's policy, per frame), and only to the very document the browser shows there. The answer
 * carries the frame's origin as the browser knows it, never as the frame says.
 */
export function serveFrames(context: FrameContext): void {
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    const tabId = sender.tab?.id;
    if (sender.id !== chrome.runtime.id || tabId === undefined || sender.frameId === undefined) return false;
    if ((raw as { type?: unknown } | null)?.type === FRAME_CHANGED && sender.frameId !== 0) {
      void tellParent(tabId, sender.frameId);
      return false;
    }
    const parsed = FrameAsk.safeParse(raw);
    if (!parsed.success) return false;
    const { path, src, request } = parsed.data;
    relay(context, tabId, sender.frameId, { path, src }, { type: FRAME_SERVE, request }).then(
      sendResponse,
      (error: unknown) => {
        context.log('frame.failed', { tabId, error: errorMessage(error) });
        sendResponse({ origin: 'unknown', refused: 'unreachable', reason: errorMessage(error) } satisfies FrameAnswer);
      },
    );
    return true;
  });
}

type FrameDetails = chrome.webNavigation.GetAllFrameResultDetails & { documentId?: string };

async function relay(
  context: FrameContext,
  tabId: number,
  parentFrameId: number,
  where: FramePlace,
  message: FrameServe,
): Promise<FrameAnswer> {
  const frame = await frameAt(tabId, parentFrameId, where);
  // The asking script names the frame by its address then (frame-link.ts): the browser shows none it can vouch for.
  if (frame === 'failed') return { origin: 'unknown', refused: 'unreachable', reason: DID_NOT_LOAD };
  if (!frame) return { origin: 'unknown', refused: 'loading', reason: 'tabmcp does not run in it yet' };
  const origin = originOf(frame.url);
  if (frame.errorOccurred) return { origin, refused: 'unreachable', reason: DID_NOT_LOAD };
  await context.restored;
  const access = context.siteAccess(frame.url);
  if (access !== 'allowed') return { origin, refused: access, site: siteOf(frame.url) ?? origin };
  const answer = await ask(tabId, frame, message, message.request.op === 'call' ? ACT_TIMEOUT_MS : READ_TIMEOUT_MS);
  if (isRecord(answer) && typeof answer.unreachable === 'string')
    return { origin, refused: 'unreachable', reason: answer.unreachable };
  if (answer === undefined) return { origin, refused: 'loading', reason: 'tabmcp does not run in it yet' };
  return { origin, answer };
}

/** A frame's tools changed: its parent derives again, and asks its frames for theirs (the frame's own site policy applies then). */
async function tellParent(tabId: number, frameId: number): Promise<void> {
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  if (!frame || frame.parentFrameId < 0) return;
  const message: FrameServe = { type: FRAME_SERVE, request: { op: 'changed' } };
  await chrome.tabs.sendMessage(tabId, message, { frameId: frame.parentFrameId }).catch(() => {});
}

/** Sends to the very document the browser showed in the frame when it was looked up. */
function ask(tabId: number, frame: FrameDetails, message: FrameServe, timeoutMs: number): Promise<unknown> {
  const target = frame.documentId ? { documentId: frame.documentId } : { frameId: frame.frameId };
  return withTimeout(chrome.tabs.sendMessage(tabId, message, target), {
    timeoutMs,
    onTimeout: () => {
      throw new Error('the frame did not answer in time');
    },
  }).catch((error: unknown) => ({ unreachable: errorMessage(error) }));
}

/** Why a frame whose last navigation failed (the browser shows its error page there, where no script runs) is not read. */
const DID_NOT_LOAD = 'it did not load';

/** Where a frame is below the asking one: indexes in `frames`, then, for one no `frames` list holds, its address. */
type FramePlace = { path: number[]; src?: string | undefined };

/**
 * The frame at `path` below `frameId`: at each step, the child whose script says it is at that
 * index. With `src`, then the one child of that frame whose script finds itself in no `frames`
 * list (index -1: an iframe in a shadow root) and whose URL is `src`; two such: none is chosen.
 * `failed` when no child answers for the index and each one that cannot answer is one the browser says
 * failed to load (no script runs in an error page): the frame asked about is among them.
 */
async function frameAt(
  tabId: number,
  frameId: number,
  { path, src }: FramePlace,
): Promise<FrameDetails | 'failed' | undefined> {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []) as FrameDetails[];
  let current: FrameDetails | undefined;
  let parent = frameId;
  const childrenOf = (id: number) => frames.filter((frame) => frame.parentFrameId === id && frame.frameId !== id);
  for (const index of path) {
    const children = childrenOf(parent);
    const indexes = await Promise.all(children.map((child) => indexOf(tabId, child)));
    current = children[indexes.indexOf(index)];
    if (!current) return failedAmong(children, indexes);
    parent = current.frameId;
  }
  if (src === undefined) return current;
  const showing = childrenOf(parent).filter((child) => sameAddress(child.url, src));
  const indexes = await Promise.all(showing.map((child) => indexOf(tabId, child)));
  const unlisted = showing.filter((_, at) => indexes[at] === -1);
  return unlisted.length === 1 ? unlisted[0] : undefined;
}

function failedAmong(children: FrameDetails[], indexes: Array<number | undefined>): 'failed' | undefined {
  const silent = children.filter((_, at) => indexes[at] === undefined);
  return silent.length > 0 && silent.every((child) => child.errorOccurred) ? 'failed' : undefined;
}

function sameAddress(url: string, src: string): boolean {
  try {
    return new URL(url).href === new URL(src).href;
  } catch {
    return false;
  }
}

/**
 * A frame's index in its parent's `window.frames`, as its own script finds it. A read asks all its
 * frames at once, and each lookup asks every sibling: an answer is shared for INDEX_FRESH_MS, so n
 * frames cost n questions, not n².
 */
function indexOf(tabId: number, frame: FrameDetails): Promise<number | undefined> {
  const key = frame.documentId ?? `${tabId}:${frame.frameId}`;
  const known = recentIndexes.get(key);
  if (known && performance.now() - known.at < INDEX_FRESH_MS) return known.index;
  const index = ask(tabId, frame, { type: FRAME_SERVE, request: { op: 'index' } }, OFFSET_TIMEOUT_MS).then((answer) =>
    isRecord(answer) && typeof answer.index === 'number' ? answer.index : undefined,
  );
  for (const [stale, entry] of recentIndexes)
    if (performance.now() - entry.at >= INDEX_FRESH_MS) recentIndexes.delete(stale);
  const entry = { at: performance.now(), index };
  recentIndexes.set(key, entry);
  // A frame whose script did not answer (not started yet) is asked again next time: it says when it starts.
  void index.then((found) => {
    if (found === undefined && recentIndexes.get(key) === entry) recentIndexes.delete(key);
  });
  return index;
}
/** Short enough that a page adding an iframe before another is seen at the next read. */
const INDEX_FRESH_MS = 500;
const recentIndexes = new Map<string, { at: number; index: Promise<number | undefined> }>();

/**
 * Where a point of frame `frameId`'s viewport is in the top viewport, for the browser's input:
 * each parent adds its iframe's content box, and checks that its own pointer there reaches that
 * iframe (else the answer names what covers it).
 */
export async function pointInTop(tabId: number, frameId: number, at: Point): Promise<FrameOffset> {
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []) as FrameDetails[];
  let point = at;
  let child = frames.find((frame) => frame.frameId === frameId);
  for (let depth = 0; child && child.frameId !== 0; depth++) {
    if (depth >= MAX_DEPTH) return { covered: 'a frame nested too deep to point into' };
    const parent = frames.find((frame) => frame.frameId === child?.parentFrameId);
    const index = await indexOf(tabId, child);
    if (!parent || index === undefined) return { covered: 'a page around the frame that did not answer' };
    // A frame no `frames` list holds (in a shadow root) is found by the parent by its address.
    const request =
      index === -1
        ? { op: 'offset' as const, index, src: child.url, at: point }
        : { op: 'offset' as const, index, at: point };
    const message: FrameServe = { type: FRAME_SERVE, request };
    const answer = (await ask(tabId, parent, message, OFFSET_TIMEOUT_MS)) as FrameOffset | { unreachable: string };
    if ('unreachable' in answer) return { covered: 'a page around the frame that did not answer' };
    if ('covered' in answer) return answer;
    point = answer.at;
    child = parent;
  }
  return child ? { at: point } : { covered: 'a frame that is gone' };
}

/** The frame's site is allowed: checked again for each of its requests for input. */
export async function frameAllowed(context: Pick<FrameContext, 'siteAccess'>, tabId: number, frameId: number) {
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  return frame !== null && context.siteAccess(frame.url) === 'allowed';
}

/** scheme://host:port, as precisely as the browser tells one origin from another. */
function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url.split(/[?#]/)[0]?.slice(0, 80) || 'no address' : origin;
  } catch {
    return 'no address';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
