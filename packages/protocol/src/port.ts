// zod/mini, not classic: the content script, which runs on every page the user opens, bundles this
// file (docs/architecture.md, "zod in the extension"). What it sends the other way, which only
// the background parses, is in port-to-background.ts: esbuild keeps every schema a bundled module
// builds, used or not.
import * as z from 'zod/mini';
import { DESCRIBE_CALL } from './confirmation';
import { JsonRpcId } from './jsonrpc-id';
import { SETTLE_LOAD } from './page-ready';
import { ToolArguments } from './tool';

/**
 * Messages on the chrome.runtime Port between a tab's content script (the proxy of docs/requirements.md#hub) and
 * the extension background (the hub). They are JSON-RPC 2.0 shaped, with docs/requirements.md#hub's method names.
 */
export const PORT_NAME = 'tabmcp-tab';

/** Where a tab's tools came from, so the hub and agents can tell a page SDK from derived tools. */
export const ToolSource = z.enum(['mcp-b', 'window.mcp', 'webmcp', 'declarative', 'dom']);
export type ToolSource = z.infer<typeof ToolSource>;

/** What a page server declares under `capabilities.browser` at initialize (docs/requirements.md "Page Server"). */
export const PageBrowserCapabilities = z.object({
  cacheSupported: z.optional(z.boolean()),
  elicitation: z.optional(z.boolean()),
});
export type PageBrowserCapabilities = z.infer<typeof PageBrowserCapabilities>;

export const ExecuteToolRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.literal('browser/executeTool'),
  params: z.object({ toolName: z.string().check(z.minLength(1), z.maxLength(256)), args: ToolArguments }),
});
export type ExecuteToolRequest = z.infer<typeof ExecuteToolRequest>;

/** MCP methods of a page that the hub may relay besides tools/call (resources and prompts of docs/requirements.md#page-sdk). */
export const PageMethod = z.enum([
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
]);
export type PageMethod = z.infer<typeof PageMethod>;

/**
 * What the background may ask a tab besides tools/call: a page's methods, and DESCRIBE_CALL
 * (confirmation.ts) and SETTLE_LOAD (page-ready.ts), which the content script answers itself and
 * never relays to the page.
 */
export const TabRequestMethod = z.union([PageMethod, z.literal(DESCRIBE_CALL), z.literal(SETTLE_LOAD)]);
export type TabRequestMethod = z.infer<typeof TabRequestMethod>;

export const PageRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.literal('browser/pageRequest'),
  params: z.object({ method: TabRequestMethod, params: z.optional(z.record(z.string(), z.unknown())) }),
});
export type PageRequest = z.infer<typeof PageRequest>;

/**
 * The letter that starts this document's handles, chosen by the background so that consecutive
 * documents of a tab never share one. Sent once the Port connects, before any call.
 */
const DocumentTagMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/documentTag'),
  params: z.object({ tag: z.string().check(z.regex(/^[a-z]$/)) }),
});

/**
 * Picked by `method`, not tried in turn: the tag that arrives at every page load would otherwise fail
 * the two requests first (about 1 ms of the load). What the content script refuses it drops unread.
 */
export const BackgroundToContent = z.discriminatedUnion('method', [
  ExecuteToolRequest,
  PageRequest,
  DocumentTagMessage,
]);
export type BackgroundToContent = z.infer<typeof BackgroundToContent>;
