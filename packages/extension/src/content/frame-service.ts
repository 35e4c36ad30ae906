import {
  FRAME_CHANGED,
  FRAME_SERVE,
  type FrameOffset,
  type FrameRead,
  FrameServe,
  type Point,
} from '../frame-messages';
import { composedQueryAll } from './dom-tools/composed-tree';
import { readPage } from './dom-tools/content';
import { DomToolServer } from './dom-tools/dom-tool-server';
import { describeElement } from './dom-tools/elements';
import { addressOf, frameChanged, indexIn } from './dom-tools/frame-link';
import { toolsForParent } from './dom-tools/frame-tools';
import { frameOffset, hitIn, reachAt } from './dom-tools/hit-test';

/** A frame's page changes are derived again at most this often, as the page's own (dom-tools/index.ts). */
const REFRESH_DEBOUNCE_MS = 300;

/**
 * What a document's content script answers about itself to the background (background/frames.ts),
 * in every frame: a sub-frame of another site is read and acted in here on its parent's request
 * (its handles start with its iframe's handle there), and a parent says where its iframe puts a
 * point, for the browser's input into that frame. Nothing is derived until a request comes, so a
 * frame nobody asks about costs one listener.
 */
export function serveFrameRequests(): () => void {
  let server: DomToolServer | undefined;
  let stopObserving = () => {};
  const serverFor = (prefix: string) => {
    if (server) return server;
    server = new DomToolServer(document, { frame: prefix });
    // Its tools change with its page: the parent hears it through the background and asks again.
    const tell = () => void chrome.runtime.sendMessage({ type: FRAME_CHANGED }).catch(() => {});
    stopObserving = server.observe(REFRESH_DEBOUNCE_MS, async () => tell(), tell);
    return server;
  };
  const answer = async (request: FrameServe['request']): Promise<unknown> => {
    switch (request.op) {
      case 'index':
        return { index: indexIn(window.parent, window) };
      case 'offset':
        return offsetOf(request.index, request.at, request.src);
      case 'changed':
        frameChanged();
        return undefined;
      case 'read': {
        const { text, complete } = await readPage(
          document,
          serverFor(request.prefix).context,
          request.main,
          request.limit,
        );
        return { text, complete } satisfies FrameRead;
      }
      case 'tools':
        return { tools: toolsForParent(serverFor(request.prefix).tools) };
      // A call or description before any read or list gave a handle or a tool: nothing of this frame was shown.
      case 'call':
        return server?.call(request.name, request.args);
      case 'describe':
        return server?.describe({ name: request.name, arguments: request.args });
    }
  };
  const onMessage = (raw: unknown, sender: chrome.runtime.MessageSender, respond: (answer: unknown) => void) => {
    // Only the background sends these (a content script's messages carry its tab).
    if (sender.id !== chrome.runtime.id || sender.tab !== undefined) return false;
    if ((raw as { type?: unknown } | null)?.type !== FRAME_SERVE) return false;
    const parsed = FrameServe.safeParse(raw);
    if (!parsed.success) return false;
    answer(parsed.data.request).then(respond, (error: unknown) =>
      respond({ unreachable: error instanceof Error ? error.message : String(error) }),
    );
    return true;
  };
  chrome.runtime.onMessage.addListener(onMessage);
  return () => {
    chrome.runtime.onMessage.removeListener(onMessage);
    stopObserving();
  };
}

/**
 * Where the point `at` of the viewport of this window's frame `index` is in this document's, and
 * whether a pointer there reaches that iframe: the browser's hit test here, as for any control (hit-test.ts).
 */
function offsetOf(index: number, at: Point, src: string | undefined): FrameOffset {
  const frame = index >= 0 ? listedFrame(index) : unlistedFrame(src);
  if (!frame) return { covered: 'a page that no longer shows the frame' };
  let local = contentBoxPoint(frame, at);
  const offset = frameOffset(frame.ownerDocument);
  if (!offset) return { covered: 'a frame tabmcp cannot point into' };
  const outside = (point: Point) =>
    point.x + offset.x < 0 ||
    point.y + offset.y < 0 ||
    point.x + offset.x >= innerWidth ||
    point.y + offset.y >= innerHeight;
  if (outside(local)) {
    // The control is in view inside its frame, the frame is not in view here: a person scrolls the page to it.
    frame.scrollIntoView({ block: 'center', inline: 'center' });
    local = contentBoxPoint(frame, at);
  }
  const reached = reachAt(frame, local);
  if (reached !== true) {
    const cover = reached ?? hitIn(frame.ownerDocument, local.x, local.y);
    return { covered: cover ? describeElement(cover) : 'nothing a pointer reaches (outside the window)' };
  }
  return { at: { x: local.x + offset.x, y: local.y + offset.y } };
}

function listedFrame(index: number): Element | undefined {
  const child = window.frames[index];
  return composedQueryAll(document, 'iframe, frame').find((candidate) => {
    try {
      return (candidate as HTMLIFrameElement).contentWindow === child;
    } catch {
      return false;
    }
  });
}

/** The one iframe of this document that no `frames` list holds (in a shadow root) and that was given `src`. */
function unlistedFrame(src: string | undefined): Element | undefined {
  const found = composedQueryAll(document, 'iframe, frame').filter((candidate) => {
    const child = (candidate as HTMLIFrameElement).contentWindow;
    return (
      child !== null &&
      candidate.ownerDocument === document &&
      indexIn(window, child) < 0 &&
      addressOf(candidate) === src
    );
  });
  return found.length === 1 ? found[0] : undefined;
}

/** A point of the frame's viewport in its iframe's document: past the iframe's border and padding. */
function contentBoxPoint(frame: Element, at: Point): Point {
  const box = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  return {
    x: at.x + box.left + frame.clientLeft + Number.parseFloat(style.paddingLeft || '0'),
    y: at.y + box.top + frame.clientTop + Number.parseFloat(style.paddingTop || '0'),
  };
}
