// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';
import { BrowserInfo, TabId, TabInfo } from './browser-link';
import { PersonWait } from './confirmation';
import { PageMethod } from './port';
import { CallToolResult, ToolArguments, ToolList } from './tool';

/**
 * The browser methods that docs/requirements.md#remote-proxy forwards from a remote MCP side to the extension, as
 * tabmcp implements them. Each has a params schema (checked by the extension before it acts) and a
 * result schema (checked by the MCP side before it trusts the answer).
 */

const Url = z.string().check(z.minLength(1), z.maxLength(8192));
const Selector = z.string().check(z.minLength(1), z.maxLength(4096));
// zod's number() refuses Infinity and NaN itself: classic's `.finite()` checked nothing more.
/** Viewport coordinates in CSS pixels. */
const Point = {
  x: z.number().check(z.nonnegative(), z.maximum(100_000)),
  y: z.number().check(z.nonnegative(), z.maximum(100_000)),
};

/** An element either by CSS selector or by viewport point. */
const Target = z.strictObject({ tabId: TabId, selector: z.optional(Selector), ...partial(Point) }).check(
  z.refine((value) => value.selector !== undefined || (value.x !== undefined && value.y !== undefined), {
    message: 'give a CSS selector, or both x and y',
  }),
);

function partial<T extends Record<string, z.ZodMiniType>>(shape: T): { [K in keyof T]: z.ZodMiniOptional<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, z.optional(schema)])) as {
    [K in keyof T]: z.ZodMiniOptional<T[K]>;
  };
}

/**
 * A tab in a getTabs answer. Tools ride along only while they are small (see {@link GETTABS_INLINE_TOOL_BYTES}):
 * otherwise `toolsOmitted` is set, `toolCount` says how many, and the MCP side asks `listPageTools` for that
 * tab alone, so one page with a megabyte of tools cannot push the whole answer over the proxy's frame limit.
 */
export const RemoteTabInfo = z.extend(TabInfo, {
  toolsOmitted: z.optional(z.literal(true)),
  toolCount: z.optional(z.int().check(z.nonnegative())),
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
      active: z._default(z.boolean(), true),
      /** How long to wait for the page's tools after it loaded. */
      waitForToolsMs: z._default(z.int().check(z.nonnegative(), z.maximum(60_000)), 3_000),
    }),
    result: z.extend(TabResult, { toolsReady: z.boolean() }),
  },
  getTabs: {
    params: z.strictObject({
      /** Answer only when the tabs differ from this version (a long poll), or after waitMs. */
      sinceVersion: z.optional(z.int().check(z.nonnegative())),
      waitMs: z._default(z.int().check(z.nonnegative(), z.maximum(MAX_TABS_WAIT_MS)), MAX_TABS_WAIT_MS),
    }),
    result: z.object({ version: z.int().check(z.nonnegative()), browser: BrowserInfo, tabs: z.array(RemoteTabInfo) }),
  },
  selectTab: { params: z.strictObject({ tabId: TabId }), result: TabResult },
  activateTab: { params: z.strictObject({ tabId: TabId }), result: TabResult },
  closeTab: {
    params: z.strictObject({ tabId: TabId }),
    result: z.object({ closed: z.literal(true), tabId: TabId }),
  },
  browser_navigate: { params: z.strictObject({ tabId: TabId, url: Url }), result: TabResult },
  goBack: { params: z.strictObject({ tabId: TabId }), result: TabResult },
  goForward: { params: z.strictObject({ tabId: TabId }), result: TabResult },
  forwardCDPCommand: {
    params: z.strictObject({
      tabId: TabId,
      method: z
        .string()
        .check(z.regex(/^[A-Z][A-Za-z]*\.[a-zA-Z]+$/, 'a CDP method such as Runtime.evaluate'), z.maxLength(128)),
      params: z.optional(z.record(z.string(), z.unknown())),
    }),
    result: z.object({ result: z.unknown() }),
  },
  click: { params: Target, result: z.object({ clicked: z.literal(true), x: z.number(), y: z.number() }) },
  hover: { params: Target, result: z.object({ hovered: z.literal(true), x: z.number(), y: z.number() }) },
  type: {
    params: z.strictObject({
      tabId: TabId,
      /** The field to type into; without it, the focused element. */
      selector: z.optional(Selector),
      text: z.string().check(z.maxLength(100_000)),
      /** Replace the field's value instead of appending. */
      clear: z._default(z.boolean(), false),
      /** Press Enter afterwards. */
      submit: z._default(z.boolean(), false),
    }),
    result: z.object({ typed: z.literal(true), length: z.int() }),
  },
  screenshot: {
    params: z.strictObject({
      /** The tab to capture; it is made active first. Without it, the active tab. */
      tabId: z.optional(TabId),
      format: z._default(z.enum(['png', 'jpeg']), 'png'),
      quality: z.optional(z.int().check(z.minimum(0), z.maximum(100))),
    }),
    result: z.object({ tabId: TabId, mimeType: z.string(), data: z.string() }),
  },
  listPageTools: { params: z.strictObject({ tabId: TabId }), result: z.object({ tabId: TabId, tools: ToolList }) },
  callPageTool: {
    params: z.strictObject({
      tabId: TabId,
      name: z.string().check(z.minLength(1), z.maxLength(256)),
      arguments: z._default(ToolArguments, {}),
      timeoutMs: z.optional(z.int().check(z.positive(), z.maximum(600_000))),
    }),
    result: CallToolResult,
  },
  pageRequest: {
    params: z.strictObject({ tabId: TabId, method: PageMethod, params: z.optional(z.record(z.string(), z.unknown())) }),
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
  connection_id: z.optional(z.string()),
  reason: z.optional(z.string()),
});

/**
 * A browser's notification through the proxy, mid-call: the forwarded request `requestId` (the id the
 * extension was given, `conn-<uuid>:<id>`) waits for the person to confirm it. The proxy relays an
 * extension's notifications to every client attached to it; a client keeps the ones naming its own calls.
 */
export const WAITING_FOR_PERSON_NOTIFICATION = 'tabmcp/waitingForPerson';
export const WaitingForPersonParams = z.object({
  requestId: z.string().check(z.maxLength(600)),
  wait: PersonWait,
});
