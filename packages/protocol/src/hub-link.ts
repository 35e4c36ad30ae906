// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';
import { Tool, ToolArguments } from './tool';

/**
 * Additions to the browser link for the hub of docs/requirements.md#hub: the `all` view (docs/requirements.md#founding-decisions, decision 3),
 * the browser capabilities of docs/requirements.md#hub's negotiation, and the site policy a tab is under.
 */

/** `allowed`: its tools reach agents; `pending`: the user has not decided; `blocked`: the user refused. */
export const SiteAccess = z.enum(['allowed', 'pending', 'blocked']);
export type SiteAccess = z.infer<typeof SiteAccess>;

/** docs/requirements.md "Capability Negotiation", as the hub aggregates it over its tabs. */
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
export const HubToolList = z.pipe(
  z.array(z.unknown()).check(z.maxLength(20_000)),
  z.transform((items: unknown[]) =>
    items.flatMap((item) => {
      const parsed = Tool.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    }),
  ),
);

/** Answered by `response {requestId, result: CallToolResult | error}` like the other requests with an id. */
export const CallHubToolMessage = z.object({
  type: z.literal('callHubTool'),
  requestId: z.string().check(z.minLength(1), z.maxLength(128)),
  name: z.string().check(z.minLength(1), z.maxLength(256)),
  args: ToolArguments,
  timeoutMs: z.optional(z.int().check(z.positive(), z.maximum(600_000))),
});

/** How many `hubToolsChanged` the extension has sent on this link; a list names the count it includes. */
const CatalogRevision = z.int().check(z.nonnegative());

/**
 * The `all` view's list changed: only the tools added or changed (whole, by hub name) and the hub
 * names gone, sent only on a link where a server watches it (`listHubTools {watch: true}`), so
 * servers that show the focused tab alone never receive the catalog (issue 24, item 4).
 */
export const HubToolsChangedMessage = z.object({
  type: z.literal('hubToolsChanged'),
  revision: CatalogRevision,
  changed: HubToolList,
  removed: z.array(z.string().check(z.minLength(1), z.maxLength(256))).check(z.maxLength(20_000)),
  capabilities: z.optional(BrowserCapabilities),
});

/**
 * Asks for the current `all` view list; answered by `response {requestId, result: HubToolsResult}`.
 * `watch: true` also asks for its changes, as `hubToolsChanged`, until `unwatchHubTools`.
 */
export const ListHubToolsMessage = z.object({
  type: z.literal('listHubTools'),
  requestId: z.string().check(z.minLength(1), z.maxLength(128)),
  watch: z.optional(z.boolean()),
});

/** Nobody on this link reads the `all` view list any more: no more `hubToolsChanged`. Answered by `response {requestId}`. */
export const UnwatchHubToolsMessage = z.object({
  type: z.literal('unwatchHubTools'),
  requestId: z.string().check(z.minLength(1), z.maxLength(128)),
});

/** `revision`: the changes sent before this list, all of them in it; later ones apply on top. */
export const HubToolsResult = z.object({
  tools: HubToolList,
  capabilities: BrowserCapabilities,
  revision: CatalogRevision,
});
export type HubToolsResult = z.infer<typeof HubToolsResult>;
