import { z } from 'zod';
import { SiteAccess } from './hub-link';

/**
 * Messages between the extension's popup and its background (chrome.runtime.sendMessage). Only
 * extension pages may send them: a content script (compromisable) must never allow its own site.
 */
export const SiteName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.\-[\]:]+$/, 'a host name');

export const PopupRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('popup/state') }),
  z.object({ type: z.literal('popup/setSite'), site: SiteName, decision: z.enum(['allow', 'block', 'forget']) }),
]);
export type PopupRequest = z.infer<typeof PopupRequest>;

export const PopupTab = z.object({
  tabId: z.number().int(),
  title: z.string().max(4096),
  url: z.string().max(8192),
  site: z.string().max(253),
  access: SiteAccess,
  active: z.boolean(),
  tools: z.array(z.string().max(256)),
});
export type PopupTab = z.infer<typeof PopupTab>;

export const AuditEntry = z.object({
  at: z.number(),
  kind: z.enum(['register', 'update', 'rejected', 'call', 'site']),
  tabId: z.number().int().optional(),
  domain: z.string().max(300).optional(),
  tool: z.string().max(256).optional(),
  outcome: z.enum(['ok', 'error']).optional(),
  detail: z.string().max(1024).optional(),
  ms: z.number().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Why the link is closed, as the extension sees it (extension/src/link-advice.ts says what to do). */
export const LinkProblem = z.enum(['unpaired', 'wrong-token', 'no-server', 'not-tabmcp', 'refused']);
export type LinkProblem = z.infer<typeof LinkProblem>;

export const PopupState = z.object({
  link: z.enum(['open', 'closed']),
  linkProblem: LinkProblem.optional(),
  serverUrl: z.string().max(300),
  tabs: z.array(PopupTab),
  sites: z.array(z.object({ site: SiteName, decision: z.enum(['allow', 'block']) })),
  calls: z.array(AuditEntry),
});
export type PopupState = z.infer<typeof PopupState>;
