// zod/mini: the content script bundles this file (see tool.ts).
import * as z from 'zod/mini';
import { JsonRpcId } from './jsonrpc';
import { MAX_ERROR_TEXT } from './limits';
import { ToolArguments } from './tool';

/**
 * A page's tool list as it arrives: each tool is checked one by one by the hub, so one bad tool
 * (or one too many) is refused with a reason instead of the whole list vanishing.
 */
export const PageToolList = z.array(z.unknown()).check(z.maxLength(20_000));

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

/**
 * docs/requirements.md "Extensibility": custom fields no version defines yet. Kept (within a bound) so the hub
 * can say it got them, rather than lost unseen by schema stripping.
 */
const Extensions = z
  .record(z.string().check(z.maxLength(256)), z.unknown())
  .check(z.refine((value) => Object.keys(value).length <= 64, 'at most 64 extensions'));

export const RegisterToolsMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/registerTools'),
  params: z.object({
    tools: PageToolList,
    tabUrl: z.optional(z.string().check(z.maxLength(8192))),
    source: z.optional(ToolSource),
    capabilities: z.optional(PageBrowserCapabilities),
    extensions: z.optional(Extensions),
  }),
});

export const UpdateToolsMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/updateTools'),
  params: z.object({ tools: PageToolList, source: z.optional(ToolSource), extensions: z.optional(Extensions) }),
});

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

export const PageRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.literal('browser/pageRequest'),
  params: z.object({ method: PageMethod, params: z.optional(z.record(z.string(), z.unknown())) }),
});
export type PageRequest = z.infer<typeof PageRequest>;

/**
 * The answer to executeTool or pageRequest, as docs/requirements.md#hub shapes it. The payload of a success is
 * checked by whoever asked (a CallToolResult for executeTool), since only it knows the method.
 */
export const PortResponse = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  result: z.union([
    z.object({ success: z.literal(true), payload: z.unknown() }),
    // A page's long error text is cut rather than refused, so the caller hears of it at once.
    z.object({
      success: z.literal(false),
      payload: z.pipe(
        z.string(),
        z.transform((text: string) => text.slice(0, MAX_ERROR_TEXT)),
      ),
      /** errors.ts: set when the content script knows what went wrong (a page answer that is no tool result). */
      code: z.optional(z.int()),
    }),
  ]),
});
export type PortResponse = z.infer<typeof PortResponse>;

/** A page's own MCP notifications other than tools (resources/prompts list changes, resource updates). */
export const PageNotificationMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/pageNotification'),
  params: z.object({
    method: z.enum([
      'notifications/resources/list_changed',
      'notifications/resources/updated',
      'notifications/prompts/list_changed',
    ]),
    params: z.optional(z.record(z.string(), z.unknown())),
  }),
});

export const ContentToBackground = z.union([
  RegisterToolsMessage,
  UpdateToolsMessage,
  PageNotificationMessage,
  PortResponse,
]);
export type ContentToBackground = z.infer<typeof ContentToBackground>;

/**
 * The letter that starts this document's handles, chosen by the background so that consecutive
 * documents of a tab never share one. Sent once the Port connects, before any call.
 */
const DocumentTagMessage = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.literal('browser/documentTag'),
  params: z.object({ tag: z.string().check(z.regex(/^[a-z]$/)) }),
});

export const BackgroundToContent = z.union([ExecuteToolRequest, PageRequest, DocumentTagMessage]);
export type BackgroundToContent = z.infer<typeof BackgroundToContent>;
