// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { errorMessage, type Logger, type SiteAccess } from '@tabmcp/protocol';
import * as z from 'zod/mini';
import type { FrameOffset } from '../../frame-messages';
import { frameAllowed, pointInTop } from '../frames';
import { inputMode } from '../input-mode';
import { dragAndDrop, type Point, pressKey, typeText } from './cdp-input';
import type { DebuggerSessions } from './debugger-sessions';
import { uploadIntoFrame } from './frame-upload';

// z.number() refuses Infinity and NaN itself (classic's `.finite()` added nothing).
const PointSchema = z.object({ x: z.number(), y: z.number() });

/**
 * What a content script may ask for, for its own tab only, at points of its own viewport: a frame's
 * points are brought to the top viewport through its parents (background/frames.ts).
 */
const InputRequest = z.object({
  type: z.literal('tabmcp/input'),
  request: z.discriminatedUnion('op', [
    z.object({ op: z.literal('mode') }),
    // Whether a frame's point is reached through its parents (a page covering its payment frame), in any input mode.
    z.object({ op: z.literal('reach'), at: PointSchema }),
    z.object({ op: z.literal('hover'), at: PointSchema }),
    z.object({
      op: z.literal('click'),
      at: PointSchema,
      count: z.union([z.literal(1), z.literal(2)]),
      // The content script moved the pointer there itself and hit-tested the point again.
      pointerThere: z.optional(z.boolean()),
    }),
    z.object({ op: z.literal('type'), text: z.string().check(z.maxLength(10_000)) }),
    z.object({ op: z.literal('key'), key: z.string().check(z.minLength(1), z.maxLength(40)) }),
    z.object({ op: z.literal('drag'), from: PointSchema, to: PointSchema }),
    z.object({
      op: z.literal('scroll'),
      at: PointSchema,
      deltaX: z.number().check(z.minimum(-100_000), z.maximum(100_000)),
      deltaY: z.number().check(z.minimum(-100_000), z.maximum(100_000)),
    }),
    z.object({
      op: z.literal('upload'),
      marker: z.string().check(z.regex(/^[a-z0-9]{8,40}$/)),
      files: z.array(z.string()).check(z.minLength(1), z.maxLength(20)),
    }),
  ]),
});
type InputRequest = z.infer<typeof InputRequest>['request'];

/** An upload's files must be ones the agent named in its call to that tab, never the page's choice. */
const agentFiles = new Map<number, Set<string>>();

/** Remembers the file paths an agent's act call names (action upload), so the tab may upload them. */
export function noteAgentFiles(tabId: number, args: Record<string, unknown>): void {
  if (args.action !== 'upload' || typeof args.value !== 'string') return;
  const files = agentFiles.get(tabId) ?? new Set<string>();
  files.add(args.value);
  agentFiles.set(tabId, files);
}

/**
 * Trusted input for the content scripts' actions (docs/dom-tools.md, "Trusted input"): CDP's
 * Input.* through the shared debugger sessions, so `:hover` applies, a double-click has its real
 * timing, keys reach autocompletes and drags start. Every answer says whether any input was sent:
 * `{ done: false, sent: false }` when the input mode is synthetic or the debugger cannot attach (the
 * content script may then use page events instead), `{ done: false, sent: true }` when input went
 * out and a later step failed (the action may have happened: it is never made a second time).
 */
export function serveTrustedInput(
  debuggers: DebuggerSessions,
  siteAccess: (url: string | undefined) => SiteAccess,
  log: Logger,
): void {
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    const tabId = sender.tab?.id;
    const frameId = sender.frameId;
    if (sender.id !== chrome.runtime.id || tabId === undefined || frameId === undefined) return false;
    const parsed = InputRequest.safeParse(raw);
    if (!parsed.success) return false;
    const request = parsed.data.request;
    const asked =
      frameId === 0 || request.op === 'mode'
        ? answer(debuggers, tabId, request)
        : inFrame(debuggers, tabId, frameId, request, siteAccess);
    asked.then(sendResponse, (error: unknown) => {
      log('input.failed', { tabId, error: errorMessage(error) });
      sendResponse({ done: false, sent: true, reason: errorMessage(error) });
    });
    return true;
  });
}

type InputAnswer = { done: boolean; sent?: boolean; mode?: string; reason?: string };

/**
 * Input asked for by a frame's content script (an agent's action on a control in a frame of another
 * site): only while the frame's site is allowed, at its points brought to the top viewport, each
 * checked on the way by the parent it passes (nothing is sent where something covers the frame).
 */
async function inFrame(
  debuggers: DebuggerSessions,
  tabId: number,
  frameId: number,
  request: InputRequest,
  siteAccess: (url: string | undefined) => SiteAccess,
): Promise<InputAnswer> {
  if (!(await frameAllowed({ siteAccess }, tabId, frameId)))
    return { done: false, sent: false, reason: "the frame's site is not allowed" };
  // The file input is looked for in the frames' documents (frame-upload.ts), not the top one's.
  if (request.op === 'upload') return answer(debuggers, tabId, request, true);
  const lift = async (at: Point): Promise<Point | string> => {
    const outcome: FrameOffset = await pointInTop(tabId, frameId, at);
    return 'covered' in outcome ? `the frame is covered there by ${outcome.covered}` : outcome.at;
  };
  // A covered frame is refused as if input had gone out (`sent`): the caller must not click through
  // the cover with page events instead. Nothing was sent, and its answer says why.
  const covered = (reason: string): InputAnswer => ({ done: false, sent: true, reason: `${reason}; nothing was sent` });
  if (request.op === 'reach') {
    const at = await lift(request.at);
    return typeof at === 'string' ? { done: false, sent: false, reason: at } : { done: true };
  }
  if (request.op === 'drag') {
    const from = await lift(request.from);
    const to = await lift(request.to);
    if (typeof from === 'string') return covered(from);
    if (typeof to === 'string') return covered(to);
    return answer(debuggers, tabId, { ...request, from, to });
  }
  if (request.op === 'hover' || request.op === 'click' || request.op === 'scroll') {
    const at = await lift(request.at);
    if (typeof at === 'string') return covered(at);
    return answer(debuggers, tabId, { ...request, at });
  }
  return answer(debuggers, tabId, request);
}

async function answer(
  debuggers: DebuggerSessions,
  tabId: number,
  request: InputRequest,
  fromFrame = false,
): Promise<InputAnswer> {
  if (request.op === 'reach') return { done: true };
  const mode = await inputMode();
  if (request.op === 'mode') return { done: true, mode };
  if (mode === 'synthetic') return { done: false, sent: false, reason: 'tabmcp runs with --input synthetic' };
  // The browser delivers no pointer or key input to a tab its window is not showing (the command waits
  // for a renderer that never handles it): page events stand in there, chosen before anything is sent.
  if (request.op !== 'upload' && !(await chrome.tabs.get(tabId).catch(() => undefined))?.active)
    return { done: false, sent: false, reason: 'the tab is not the one its window shows' };
  // Attached before anything is sent: a refusal here means nothing reached the page.
  try {
    await debuggers.attach(tabId);
  } catch (error) {
    return { done: false, sent: false, reason: errorMessage(error) };
  }
  return perform(debuggers, tabId, request, fromFrame);
}

async function perform(
  debuggers: DebuggerSessions,
  tabId: number,
  request: InputRequest,
  fromFrame: boolean,
): Promise<InputAnswer> {
  const send = (method: string, params?: Record<string, unknown>) => debuggers.send(tabId, method, params);
  const mouse = (type: string, at: Point, extra: Record<string, unknown> = {}) =>
    send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, ...extra });
  switch (request.op) {
    case 'hover':
      await mouse('mouseMoved', request.at);
      break;
    case 'click':
      // Each input event waits for the renderer's next frame: a move already made is not made again.
      if (!request.pointerThere) await mouse('mouseMoved', request.at);
      await Promise.all(pressAndRelease(request.count, (type, extra) => mouse(type, request.at, extra)));
      break;
    case 'type':
      await typeText(send, request.text);
      break;
    case 'key':
      await pressKey(send, request.key);
      break;
    case 'drag':
      await dragAndDrop(debuggers, tabId, request.from, request.to);
      break;
    case 'scroll':
      // A wheel turn where the pointer is, as a person scrolls a list: the page's own scroll code runs.
      await mouse('mouseWheel', request.at, { deltaX: request.deltaX, deltaY: request.deltaY });
      break;
    case 'upload': {
      const allowed = agentFiles.get(tabId);
      const refused = request.files.find((file) => !allowed?.has(file));
      if (refused !== undefined)
        return { done: false, sent: false, reason: `the agent did not name ${refused} for this tab` };
      if (fromFrame) await uploadIntoFrame(debuggers, tabId, request.marker, request.files);
      else await upload(send, request.marker, request.files);
      break;
    }
  }
  return { done: true, sent: true };
}

async function upload(
  send: (method: string, params?: Record<string, unknown>) => Promise<unknown>,
  marker: string,
  files: string[],
): Promise<void> {
  // The content script marked the input; found here through open shadow roots too.
  const found = (await send('Runtime.evaluate', {
    expression: `(() => {
      const find = (root) => root.querySelector('[data-tabmcp-upload="${marker}"]') ??
        [...root.querySelectorAll('*')].map((el) => el.shadowRoot && find(el.shadowRoot)).find(Boolean) ?? null;
      return find(document);
    })()`,
  })) as { result?: { objectId?: string } };
  const objectId = found.result?.objectId;
  if (!objectId) throw new Error('the file input is gone from the page');
  await send('DOM.setFileInputFiles', { files, objectId });
}

/**
 * A click's presses and releases (a double-click: two in a row, the second with clickCount 2, as a person
 * makes it), sent together in one task rather than each after the last one's answer: an answer waits for
 * the renderer's next frame, and the window may change size at that frame (Chrome's debugging bar, shown a
 * moment after a call attaches the debugger), so a release sent after it lands past a control near the
 * window's edge, and the control gets the press but no click. The renderer takes them in order.
 */
function pressAndRelease(
  count: 1 | 2,
  mouse: (type: string, extra: Record<string, unknown>) => Promise<unknown>,
): Array<Promise<unknown>> {
  const sent: Array<Promise<unknown>> = [];
  for (let clickCount = 1; clickCount <= count; clickCount++) {
    sent.push(mouse('mousePressed', { button: 'left', buttons: 1, clickCount }));
    sent.push(mouse('mouseReleased', { button: 'left', buttons: 0, clickCount }));
  }
  return sent;
}
