// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
// What a tab's content script sends the background on the Port (port.ts). Only the background parses
// these: they are apart from port.ts so that the content script, which types them but never parses
// them, does not build their schemas on every page load.
import * as z from 'zod/mini';
import { JsonRpcId } from './jsonrpc-id';
import { MAX_ERROR_TEXT } from './limits';
import { PageBrowserCapabilities, ToolSource } from './port';

/**
 * A page's tool list as it arrives: each tool is checked one by one by the hub, so one bad tool
 * (or one too many) is refused with a reason instead of the whole list vanishing.
 */
export const PageToolList = z.array(z.unknown()).check(z.maxLength(20_000));

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
