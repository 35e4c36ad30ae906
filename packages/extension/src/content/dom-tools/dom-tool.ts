import type { CallToolResult, Tool } from '@tabmcp/protocol';
import { markPageText } from '@tabmcp/protocol/light';
import { NAVIGATING_META } from '../../navigation-meta';
import type { Readback } from './readback';
import type { RenderContext } from './render';

/** A tool derived from the page's DOM: what the agent sees, and how to run it on this page. */
export interface DomTool {
  tool: Tool;
  /** False once the elements it drives left the document (the page re-rendered). */
  isLive(): boolean;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
  /**
   * What a call with these arguments would act on, found without acting, so the person can be asked
   * before it runs (content/action-facts.ts; docs/user-guide.md, "Asking before it matters").
   */
  subject?(args: Record<string, unknown>): ActionSubject | undefined;
}

/** The control a call would act on (or, for an item's control, its caption) and how. */
export interface ActionSubject {
  element?: Element;
  caption?: string;
  /** An act verb (click, fill, press, upload, …), or submit for a form tool. */
  action: string;
  /** fill and press: Enter submits the field's form after. */
  submit?: boolean;
  /** What a form tool fills in, by field. */
  values?: Record<string, unknown>;
}

export interface PerformOptions {
  /** Fields added to the answer, read once the page settled (a form's `submitted`). */
  extra?: () => Record<string, unknown>;
  keepWatching?: () => boolean;
  /** Reads the state back once the page settled: a sentence when the action did not take (readback.ts). */
  readback?: Readback;
  /** The element acted on: named before and after, so a page that renames it on the way is caught. */
  subject?: Element;
}

/** What every derived tool may use: the page's handles and hover rules, and the one way to act. */
export interface ToolContext extends RenderContext {
  /**
   * Runs an action on the page and answers with what it changed (docs/dom-tools.md, "Results"):
   * `done` says in words what was done, `extra` adds fields (a form's `submitted`).
   */
  perform(done: string, action: () => void | Promise<void>, options?: PerformOptions): Promise<CallToolResult>;
}

/** One line of JSON text: structured content would double the bytes an agent reads. */
export function jsonResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

/** An answer sent as the page unloads: the background adds the new page's URL, title and tools. */
export function markedNavigating(result: CallToolResult): CallToolResult {
  const meta = typeof result._meta === 'object' && result._meta !== null ? result._meta : {};
  return { ...result, _meta: { ...meta, [NAVIGATING_META]: true } };
}

/** Where page text came from, as its mark says: the origin, or the scheme of a page that has none (file:). */
function pageOrigin(): string {
  return location.origin !== 'null' ? location.origin : location.protocol;
}

/**
 * Page text as it reaches an agent: after `[page text from <origin>]`, so it never passes for
 * tabmcp's own words (docs/security.md, "Page text"). The text itself was cleaned where it was read.
 */
export function markedPageText(text: string): string {
  return markPageText(text, pageOrigin(), 'text');
}
