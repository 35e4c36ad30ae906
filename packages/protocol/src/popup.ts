// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';
import { SiteAccess } from './hub-link';

/**
 * Messages between the extension's popup and its background (chrome.runtime.sendMessage). Only
 * extension pages may send them: a content script (compromisable) must never allow its own site.
 */
export const SiteName = z
  .string()
  .check(z.minLength(1), z.maxLength(253), z.regex(/^[A-Za-z0-9.\-[\]:]+$/, 'a host name'));

export const PopupRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('popup/state') }),
  z.object({ type: z.literal('popup/setSite'), site: SiteName, decision: z.enum(['allow', 'block', 'forget']) }),
]);
export type PopupRequest = z.infer<typeof PopupRequest>;

export const PopupTab = z.object({
  tabId: z.int(),
  title: z.string().check(z.maxLength(4096)),
  url: z.string().check(z.maxLength(8192)),
  site: z.string().check(z.maxLength(253)),
  access: SiteAccess,
  active: z.boolean(),
  tools: z.array(z.string().check(z.maxLength(256))),
});
export type PopupTab = z.infer<typeof PopupTab>;

export const AuditEntry = z.object({
  at: z.number(),
  kind: z.enum(['register', 'update', 'rejected', 'call', 'site']),
  tabId: z.optional(z.int()),
  domain: z.optional(z.string().check(z.maxLength(300))),
  tool: z.optional(z.string().check(z.maxLength(256))),
  outcome: z.optional(z.enum(['ok', 'error'])),
  detail: z.optional(z.string().check(z.maxLength(1024))),
  ms: z.optional(z.number()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Why the link is closed, as the extension sees it (extension/src/link-advice.ts says what to do). */
export const LinkProblem = z.enum(['unpaired', 'wrong-token', 'no-server', 'not-tabmcp', 'refused']);
export type LinkProblem = z.infer<typeof LinkProblem>;

export const PopupState = z.object({
  link: z.enum(['open', 'closed']),
  linkProblem: z.optional(LinkProblem),
  serverUrl: z.string().check(z.maxLength(300)),
  tabs: z.array(PopupTab),
  sites: z.array(z.object({ site: SiteName, decision: z.enum(['allow', 'block']) })),
  calls: z.array(AuditEntry),
});
export type PopupState = z.infer<typeof PopupState>;
