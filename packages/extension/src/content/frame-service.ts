import { FRAME_SERVE, type FrameOffset, type FrameRead, FrameServe, type Point } from '../frame-messages';
import { composedQueryAll } from './dom-tools/composed-tree';
import { readPage } from './dom-tools/content';
import { DomToolServer } from './dom-tools/dom-tool-server';
import { describeElement } from './dom-tools/elements';
import { indexIn } from './dom-tools/frame-link';
import { frameOffset, hitIn, reachAt } from './dom-tools/hit-test';

/**
 * What a document's content script answers about itself to the background (background/frames.ts),
 * in every frame: a sub-frame of another site is read and acted in here on its parent's request
 * (its handles start with its iframe's handle there), and a parent says where its iframe puts a
 * point, for the browser's input into that frame. Nothing is derived until a request comes, so a
 * frame nobody asks about costs one listener.
 */
export function serveFrameRequests(): () => void {
  let server: DomToolServer | undefined;
  const serverFor = (prefix: string) => {
    server ??= new DomToolServer(document, { frame: prefix });
    return server;
  };
  const onMessage = (raw: unknown, sender: chrome.runtime.MessageSender, respond: (answer: unknown) => void) => {
    // Only the background sends these (a content script's messages carry its tab).
    if (sender.id !== chrome.runtime.id || sender.tab !== undefined) return false;
    if ((raw as { type?: unknown } | null)?.type !== FRAME_SERVE) return false;
    const parsed = FrameServe.safeParse(raw);
    if (!parsed.success) return false;
    const request = parsed.data.request;
    let answer: Promise<unknown>;
    if (request.op === 'index') answer = Promise.resolve({ index: indexIn(window.parent, window) });
    else if (request.op === 'offset') answer = Promise.resolve(offsetOf(request.index, request.at));
    else if (request.op === 'read') {
      const context = serverFor(request.prefix).context;
      answer = readPage(document, context, request.main, request.limit).then(
        ({ text, complete }): FrameRead => ({ text, complete }),
      );
    } else if (request.op === 'act' && server) answer = server.call('act', request.args);
    else if (request.op === 'describe' && server)
      answer = Promise.resolve(server.describe({ name: 'act', arguments: request.args }));
    else answer = Promise.resolve(undefined);
    answer.then(respond, (error: unknown) =>
      respond({ unreachable: error instanceof Error ? error.message : String(error) }),
    );
    return true;
  };
  chrome.runtime.onMessage.addListener(onMessage);
  return () => chrome.runtime.onMessage.removeListener(onMessage);
}

/**
 * Where the point `at` of the viewport of this window's frame `index` is in this document's, and
 * whether a pointer there reaches that iframe: the browser's hit test here, as for any control (hit-test.ts).
 */
function offsetOf(index: number, at: Point): FrameOffset {
  const child = window.frames[index];
  const frame = composedQueryAll(document, 'iframe, frame').find((candidate) => {
    try {
      return (candidate as HTMLIFrameElement).contentWindow === child;
    } catch {
      return false;
    }
  });
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

/** A point of the frame's viewport in its iframe's document: past the iframe's border and padding. */
function contentBoxPoint(frame: Element, at: Point): Point {
  const box = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  return {
    x: at.x + box.left + frame.clientLeft + Number.parseFloat(style.paddingLeft || '0'),
    y: at.y + box.top + frame.clientTop + Number.parseFloat(style.paddingTop || '0'),
  };
}
