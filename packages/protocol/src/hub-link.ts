import { z } from 'zod';
import { Tool, ToolArguments } from './tool';

/**
 * Additions to the browser link for the hub of mcp-b.md: the `all` view (DESIGN.md decision 3),
 * the browser capabilities of mcp-b.md's negotiation, and the site policy a tab is under.
 */

/** `allowed`: its tools reach agents; `pending`: the user has not decided; `blocked`: the user refused. */
export const SiteAccess = z.enum(['allowed', 'pending', 'blocked']);
export type SiteAccess = z.infer<typeof SiteAccess>;

/** mcp-b.md "Capability Negotiation", as the hub aggregates it over its tabs. */
export const BrowserCapabilities = z.object({
  multiTabSupport: z.boolean(),
  cacheSupported: z.boolean(),
  elicitation: z.boolean(),
});
export type BrowserCapabilities = z.infer<typeof BrowserCapabilities>;

/**
 * Every tab's tools of every allowed site, named and described by the hub; schemas untouched. A
 * tool that does not check out is dropped alone: one bad tool must not freeze the whole list.
 */
export const HubToolList = z
  .array(z.unknown())
  .max(20_000)
  .transform((items) =>
    items.flatMap((item) => {
      const parsed = Tool.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    }),
  );

/** Answered by `response {requestId, result: CallToolResult | error}` like the other requests with an id. */
export const CallHubToolMessage = z.object({
  type: z.literal('callHubTool'),
  requestId: z.string().min(1).max(128),
  name: z.string().min(1).max(256),
  args: ToolArguments,
  timeoutMs: z.number().int().positive().max(600_000).optional(),
});

export const HubToolsChangedMessage = z.object({
  type: z.literal('hubToolsChanged'),
  tools: HubToolList,
  capabilities: BrowserCapabilities.optional(),
});

/** Asks for the current `all` view list; answered by `response {requestId, result: HubToolsResult}`. */
export const ListHubToolsMessage = z.object({
  type: z.literal('listHubTools'),
  requestId: z.string().min(1).max(128),
});

export const HubToolsResult = z.object({ tools: HubToolList, capabilities: BrowserCapabilities });
export type HubToolsResult = z.infer<typeof HubToolsResult>;
