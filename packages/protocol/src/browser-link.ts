// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';
import { ClientConfirmation, ConfirmMode, PersonWait } from './confirmation';
import {
  BrowserCapabilities,
  CallHubToolMessage,
  HubToolsChangedMessage,
  ListHubToolsMessage,
  SiteAccess,
  UnwatchHubToolsMessage,
} from './hub-link';
import { InputMode } from './input-mode';
import { JsonRpcErrorObject } from './jsonrpc';
import { PageMethod } from './port';
import { CallToolResult, ToolArguments, ToolList } from './tool';

/**
 * The local WebSocket between the extension (client) and the tabmcp server, as in
 * docs/requirements.md#local-server, with docs/requirements.md#founding-decisions, decision 5: every server→extension request carries a
 * `requestId` (`callId` for callTool, as the spec names it) and gets exactly one reply.
 */
export const BROWSER_LINK_PROTOCOL_VERSION = 1;

export const TabId = z.int().check(z.nonnegative());

export const TabInfo = z.object({
  id: TabId,
  title: z.string().check(z.maxLength(4096)),
  url: z.string().check(z.maxLength(8192)),
  active: z.optional(z.boolean()),
  /** Present when the extension knows the tab's tools (connected, openTab replies). */
  tools: z.optional(ToolList),
  /** Whether the user let this site's tools reach agents (hub site policy); absent means allowed. */
  siteAccess: z.optional(SiteAccess),
});
export type TabInfo = z.infer<typeof TabInfo>;

export const BrowserInfo = z.object({
  name: z.string().check(z.maxLength(256)),
  version: z.string().check(z.maxLength(256)),
});
export type BrowserInfo = z.infer<typeof BrowserInfo>;

const RequestId = z.string().check(z.minLength(1), z.maxLength(128));

// Server → extension
export const ServerToExtension = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pong') }),
  z.object({
    type: z.literal('connect'),
    requestId: RequestId,
    launch: z.optional(z.boolean()),
    /** The agent's `--input`; without it the extension's options page decides. */
    input: z.optional(InputMode),
    /** The agent's `--confirm` (or `allow` for automation); without it the options page decides. */
    confirm: z.optional(ConfirmMode),
  }),
  z.object({
    type: z.literal('openTab'),
    requestId: RequestId,
    url: z.string().check(z.minLength(1), z.maxLength(8192)),
    focus: z.boolean(),
    /** How long the extension may wait for the page's tools before replying. */
    waitForToolsMs: z.optional(z.int().check(z.nonnegative(), z.maximum(60_000))),
  }),
  z.object({ type: z.literal('focusTab'), requestId: RequestId, tabId: TabId }),
  z.object({ type: z.literal('closeTab'), requestId: RequestId, tabId: TabId }),
  z.object({
    type: z.literal('callTool'),
    callId: RequestId,
    tabId: TabId,
    toolName: z.string().check(z.minLength(1), z.maxLength(256)),
    args: ToolArguments,
    timeoutMs: z.optional(z.int().check(z.positive(), z.maximum(600_000))),
    /** The agent's MCP client can ask the person (elicitation): a headless browser's question goes there. */
    askClient: z.optional(z.boolean()),
    /** The person's answer, given in the agent's client, to the question this token names. */
    confirmed: z.optional(ClientConfirmation),
  }),
  /** Resources and prompts of a tab's page (docs/requirements.md#page-sdk), relayed as MCP requests. */
  z.object({
    type: z.literal('pageRequest'),
    requestId: RequestId,
    tabId: TabId,
    method: PageMethod,
    params: z.optional(z.record(z.string(), z.unknown())),
  }),
  /** The `all` view: a tool by its hub name (website_tool_<domain>_tab<N>_<name>), routed by the hub. */
  CallHubToolMessage,
  ListHubToolsMessage,
  UnwatchHubToolsMessage,
]);
export type ServerToExtension = z.infer<typeof ServerToExtension>;
export type ServerRequest = Exclude<ServerToExtension, { type: 'pong' }>;

// Extension → server
export const ExtensionToServer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({
    type: z.literal('hello'),
    protocolVersion: z.int(),
    extensionVersion: z.string().check(z.maxLength(64)),
    browser: BrowserInfo,
    capabilities: z.optional(BrowserCapabilities),
  }),
  z.object({
    type: z.literal('connected'),
    requestId: RequestId,
    browser: BrowserInfo,
    tabs: z.array(TabInfo).check(z.maxLength(5_000)),
  }),
  z.object({ type: z.literal('disconnected') }),
  z.object({ type: z.literal('tabCreated'), tab: TabInfo }),
  z.object({ type: z.literal('tabUpdated'), tab: TabInfo }),
  z.object({ type: z.literal('tabClosed'), tabId: TabId }),
  z.object({ type: z.literal('tabFocused'), tabId: TabId, tools: ToolList }),
  z.object({ type: z.literal('toolsChanged'), tabId: TabId, tools: ToolList }),
  /** The `all` view: what changed in the hub's list, only on a link that watches it (hub-link.ts). */
  HubToolsChangedMessage,
  z.object({
    type: z.literal('pageNotification'),
    tabId: TabId,
    method: z.enum([
      'notifications/resources/list_changed',
      'notifications/resources/updated',
      'notifications/prompts/list_changed',
    ]),
    params: z.optional(z.record(z.string(), z.unknown())),
  }),
  /**
   * Mid-call, before its reply: the call (`callTool`'s callId, `callHubTool`'s requestId) waits for
   * the person to answer the browser's confirmation prompt. Routed like a reply, to the caller only.
   */
  z.object({ type: z.literal('waitingForPerson'), requestId: RequestId, wait: PersonWait }),
  z.object({
    type: z.literal('toolResult'),
    callId: RequestId,
    result: z.optional(CallToolResult),
    error: z.optional(z.string().check(z.maxLength(65_536))),
    /** The error's code (errors.ts), so the server classifies it without reading its words. */
    code: z.optional(z.int()),
  }),
  z.object({
    type: z.literal('response'),
    requestId: RequestId,
    result: z.optional(z.unknown()),
    error: z.optional(JsonRpcErrorObject),
  }),
]);
export type ExtensionToServer = z.infer<typeof ExtensionToServer>;

/** Replies to openTab/focusTab/closeTab. */
export const OpenTabResult = z.object({
  tab: TabInfo,
  focused: z.boolean(),
  toolsReady: z.boolean(),
  /** Set when the page was still loading things or changing at the readiness cap: what it was still doing. */
  stillBusy: z.optional(z.string().check(z.maxLength(200))),
});
export type OpenTabResult = z.infer<typeof OpenTabResult>;
export const FocusTabResult = z.object({ tab: TabInfo });
export const CloseTabResult = z.object({ closed: z.literal(true), tabId: TabId });
