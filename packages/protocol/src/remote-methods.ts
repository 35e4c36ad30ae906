import { z } from 'zod';
import { BrowserInfo, TabId, TabInfo } from './browser-link';
import { PageMethod } from './port';
import { CallToolResult, ToolArguments, ToolList } from './tool';

/**
 * The browser methods that docs/requirements.md#remote-proxy forwards from a remote MCP side to the extension, as
 * tabmcp implements them. Each has a params schema (checked by the extension before it acts) and a
 * result schema (checked by the MCP side before it trusts the answer).
 */

const Url = z.string().min(1).max(8192);
const Selector = z.string().min(1).max(4096);
/** Viewport coordinates in CSS pixels. */
const Point = { x: z.number().finite().nonnegative().max(100_000), y: z.number().finite().nonnegative().max(100_000) };

/** An element either by CSS selector or by viewport point. */
const Target = z
  .object({ tabId: TabId, selector: Selector.optional(), ...partial(Point) })
  .strict()
  .refine((value) => value.selector !== undefined || (value.x !== undefined && value.y !== undefined), {
    message: 'give a CSS selector, or both x and y',
  });

function partial<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}

/**
 * A tab in a getTabs answer. Tools ride along only while they are small (see {@link GETTABS_INLINE_TOOL_BYTES}):
 * otherwise `toolsOmitted` is set, `toolCount` says how many, and the MCP side asks `listPageTools` for that
 * tab alone, so one page with a megabyte of tools cannot push the whole answer over the proxy's frame limit.
 */
export const RemoteTabInfo = TabInfo.extend({
  toolsOmitted: z.literal(true).optional(),
  toolCount: z.number().int().nonnegative().optional(),
});
export type RemoteTabInfo = z.infer<typeof RemoteTabInfo>;

const TabResult = z.object({ tabId: TabId, url: z.string(), title: z.string(), tab: RemoteTabInfo });

/** One tab's tools are sent inline up to this many UTF-8 bytes... */
export const GETTABS_INLINE_TOOL_BYTES = 64 * 1024;
/** ...and all tabs' together up to this many. */
export const GETTABS_INLINE_TOTAL_BYTES = 256 * 1024;

/** Long polls are answered within this bound, well under the proxy's forwarded-call timeout (120 s). */
export const MAX_TABS_WAIT_MS = 25_000;

export const RemoteMethods = {
  createTab: {
    // Loose: clients send hints of their own (the spec's example has `stealth`); they are ignored.
    params: z.looseObject({
      url: Url,
      active: z.boolean().default(true),
      /** How long to wait for the page's tools after it loaded. */
      waitForToolsMs: z.number().int().nonnegative().max(60_000).default(3_000),
    }),
    result: TabResult.extend({ toolsReady: z.boolean() }),
  },
  getTabs: {
    params: z
      .object({
        /** Answer only when the tabs differ from this version (a long poll), or after waitMs. */
        sinceVersion: z.number().int().nonnegative().optional(),
        waitMs: z.number().int().nonnegative().max(MAX_TABS_WAIT_MS).default(MAX_TABS_WAIT_MS),
      })
      .strict(),
    result: z.object({ version: z.number().int().nonnegative(), browser: BrowserInfo, tabs: z.array(RemoteTabInfo) }),
  },
  selectTab: { params: z.object({ tabId: TabId }).strict(), result: TabResult },
  activateTab: { params: z.object({ tabId: TabId }).strict(), result: TabResult },
  closeTab: {
    params: z.object({ tabId: TabId }).strict(),
    result: z.object({ closed: z.literal(true), tabId: TabId }),
  },
  browser_navigate: { params: z.object({ tabId: TabId, url: Url }).strict(), result: TabResult },
  goBack: { params: z.object({ tabId: TabId }).strict(), result: TabResult },
  goForward: { params: z.object({ tabId: TabId }).strict(), result: TabResult },
  forwardCDPCommand: {
    params: z
      .object({
        tabId: TabId,
        method: z
          .string()
          .regex(/^[A-Z][A-Za-z]*\.[a-zA-Z]+$/, 'a CDP method such as Runtime.evaluate')
          .max(128),
        params: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    result: z.object({ result: z.unknown() }),
  },
  click: { params: Target, result: z.object({ clicked: z.literal(true), x: z.number(), y: z.number() }) },
  hover: { params: Target, result: z.object({ hovered: z.literal(true), x: z.number(), y: z.number() }) },
  type: {
    params: z
      .object({
        tabId: TabId,
        /** The field to type into; without it, the focused element. */
        selector: Selector.optional(),
        text: z.string().max(100_000),
        /** Replace the field's value instead of appending. */
        clear: z.boolean().default(false),
        /** Press Enter afterwards. */
        submit: z.boolean().default(false),
      })
      .strict(),
    result: z.object({ typed: z.literal(true), length: z.number().int() }),
  },
  screenshot: {
    params: z
      .object({
        /** The tab to capture; it is made active first. Without it, the active tab. */
        tabId: TabId.optional(),
        format: z.enum(['png', 'jpeg']).default('png'),
        quality: z.number().int().min(0).max(100).optional(),
      })
      .strict(),
    result: z.object({ tabId: TabId, mimeType: z.string(), data: z.string() }),
  },
  listPageTools: { params: z.object({ tabId: TabId }).strict(), result: z.object({ tabId: TabId, tools: ToolList }) },
  callPageTool: {
    params: z
      .object({
        tabId: TabId,
        name: z.string().min(1).max(256),
        arguments: z._default(ToolArguments, {}),
        timeoutMs: z.number().int().positive().max(600_000).optional(),
      })
      .strict(),
    result: CallToolResult,
  },
  pageRequest: {
    params: z
      .object({ tabId: TabId, method: PageMethod, params: z.record(z.string(), z.unknown()).optional() })
      .strict(),
    result: z.unknown(),
  },
} as const;

export type RemoteMethodName = keyof typeof RemoteMethods;
export type RemoteParams<M extends RemoteMethodName> = z.input<(typeof RemoteMethods)[M]['params']>;
export type RemoteParsedParams<M extends RemoteMethodName> = z.output<(typeof RemoteMethods)[M]['params']>;
export type RemoteResult<M extends RemoteMethodName> = z.output<(typeof RemoteMethods)[M]['result']>;

export function isRemoteMethod(name: string): name is RemoteMethodName {
  return Object.hasOwn(RemoteMethods, name);
}

/** The proxy's own methods and notifications (docs/requirements.md, "Control Methods"). */
export const ProxyAuthenticatedParams = z.looseObject({ user_id: z.string(), extension_id: z.string() });
export const McpHandshakeResult = z.looseObject({
  authenticated: z.literal(true),
  user_id: z.string(),
  mcp_client_id: z.string(),
});
export const ListExtensionsResult = z.object({
  extensions: z.array(z.looseObject({ id: z.string(), name: z.string(), connected: z.boolean() })),
});
export const ProxyConnectResult = z.looseObject({
  connection_id: z.string(),
  extension_id: z.string(),
  extension_name: z.string(),
});
export const ProxyDisconnectedParams = z.looseObject({
  connection_id: z.string().optional(),
  reason: z.string().optional(),
});
