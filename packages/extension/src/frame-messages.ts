// zod/mini: both the content script and the background bundle this (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';

/**
 * The messages that reach a frame of another site (docs/dom-tools.md, "Shadow DOM and frames"): a
 * page's content script asks the background about one of its own iframes (FRAME_ASK), and the
 * background, once the frame's site is allowed, relays it to that frame's content script
 * (FRAME_SERVE). The background also asks a parent where its iframe stands (`offset`), to bring a
 * frame's point of input to the top viewport.
 */
export const FRAME_ASK = 'tabmcp/frame';
export const FRAME_SERVE = 'tabmcp/frameServe';

const Point = z.object({ x: z.number(), y: z.number() });
export type Point = z.infer<typeof Point>;

/** The frame's handle in the parent, that each handle of the frame starts with (`k512.`). */
const Prefix = z.string().check(z.regex(/^(?:[a-z]\d{1,9}\.){1,8}$/));
const ToolName = z.string().check(z.minLength(1), z.maxLength(128));

/** What a parent may ask of its frame: a read of it, its tools, a call of one (`act` on a handle the read gave too), or what a call would act on. */
export const FrameRequest = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('read'),
    prefix: Prefix,
    main: z.boolean(),
    limit: z.number().check(z.minimum(0)),
  }),
  // The frame's own derived tools (fill_…, click_…), under its handles' prefix.
  z.object({ op: z.literal('tools'), prefix: Prefix }),
  // A call of one of them, or of `act` on a handle the read gave.
  z.object({ op: z.literal('call'), name: ToolName, args: z.record(z.string(), z.unknown()) }),
  // What that call would act on, for the confirmation gate (docs/user-guide.md, "Asking before it matters").
  z.object({ op: z.literal('describe'), name: ToolName, args: z.record(z.string(), z.unknown()) }),
]);
export type FrameRequest = z.infer<typeof FrameRequest>;

/**
 * A frame as its parent knows it: its index in `window.frames`, which the frame's own script finds
 * too (`parent.frames[i] === window`, allowed across origins) and which the page cannot see asked.
 * An iframe inside a same-origin frame that the page reads inline has a path of two or more.
 */
const FramePathStep = z.int().check(z.minimum(0), z.maximum(10_000));

/** The address of an iframe that no `frames` list holds (one in a shadow root): its frame is the one with no index showing it. */
const FrameSrc = z.string().check(z.minLength(1), z.maxLength(4_096));

/**
 * Content → background: a request for the iframe at `path` below the asking document, or, with
 * `src`, for the unlisted frame showing `src` below the one at `path` (an empty path: the asking document).
 */
export const FrameAsk = z
  .object({
    type: z.literal(FRAME_ASK),
    path: z.array(FramePathStep).check(z.maxLength(8)),
    src: z.optional(FrameSrc),
    request: FrameRequest,
  })
  .check(z.refine((ask) => ask.path.length > 0 || ask.src !== undefined));

/**
 * Background → content: a parent's request; this frame's index in its parent's `window.frames`;
 * or where this document's iframe at `index` puts a point of that frame's viewport.
 */
export const FrameServe = z.object({
  type: z.literal(FRAME_SERVE),
  request: z.union([
    FrameRequest,
    z.object({ op: z.literal('index') }),
    // A frame of this document changed its tools: derive again (and ask it for them).
    z.object({ op: z.literal('changed') }),
    // `index` -1: the iframe in no `frames` list (a shadow root's) that shows `src`.
    z.object({ op: z.literal('offset'), index: z.int().check(z.minimum(-1)), src: z.optional(FrameSrc), at: Point }),
  ]),
});
export type FrameServe = z.infer<typeof FrameServe>;

/** Frame → background: this frame's tools changed; the background tells its parent (`changed`). */
export const FRAME_CHANGED = 'tabmcp/frameChanged';

/** The background's answer to FRAME_ASK: the frame's origin as the browser knows it, and its answer or why none. */
export type FrameAnswer =
  | { origin: string; answer: unknown }
  | { origin: string; refused: 'pending' | 'blocked' | 'unreachable' | 'loading'; site?: string; reason?: string };

/** A frame's answer to `read`. */
export type FrameRead = { text: string; complete: boolean };
/** A parent's answer to `offset`: the point in its own viewport, or what covers the frame there. */
export type FrameOffset = { at: Point } | { covered: string };
