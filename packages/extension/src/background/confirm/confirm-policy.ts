import { ConfirmMode } from '@tabmcp/protocol';
import * as z from 'zod/mini';

/** Where the options page and "Always for this site" keep the person's choices (chrome.storage.local). */
export const CONFIRM_POLICY_KEY = 'confirmPolicy';
const MAX_SITES = 1_000;

const Site = z.string().check(z.minLength(1), z.maxLength(253));
/** Stored: every field optional, so a policy of an older build (or a hand edit) reads as far as it is valid. */
export const StoredConfirmPolicy = z.object({
  /** For sites the person has not decided on; absent: the agent's --confirm, else ask (allow headless). */
  default: z.optional(ConfirmMode),
  sites: z.optional(z.record(Site, ConfirmMode)),
  /** Sites whose page tools are asked about unless they say readOnlyHint. */
  strictSites: z.optional(z.array(Site).check(z.maxLength(MAX_SITES))),
});
export type StoredConfirmPolicy = z.infer<typeof StoredConfirmPolicy>;

/** Which choice decided, for the answer and the record: the person's for this site, the options page's, … */
type PolicySource = 'site' | 'options' | 'agent' | 'headless' | 'default';

export interface SitePolicyChoice {
  mode: ConfirmMode;
  source: PolicySource;
  /** Page tools without readOnlyHint count as consequential here. */
  strict: boolean;
}

/**
 * The confirmation policy of a site, from the most particular choice to the least: the person's for
 * this site (options page, "Always for this site"), the options page's default, the connected agent's
 * `--confirm` (automation sends allow), then ask, except in a headless browser, where nobody could
 * answer and so it is allow.
 */
export function choosePolicy(
  stored: StoredConfirmPolicy,
  fromAgent: ConfirmMode | undefined,
  headless: boolean,
  site: string | undefined,
): SitePolicyChoice {
  const strict = site !== undefined && (stored.strictSites ?? []).includes(site);
  const own = site === undefined ? undefined : stored.sites?.[site];
  if (own) return { mode: own, source: 'site', strict };
  if (stored.default) return { mode: stored.default, source: 'options', strict };
  if (fromAgent) return { mode: fromAgent, source: 'agent', strict };
  return headless ? { mode: 'allow', source: 'headless', strict } : { mode: 'ask', source: 'default', strict };
}

/** Reads a stored policy, dropping what does not parse rather than failing the call. */
export function parseStoredPolicy(value: unknown): StoredConfirmPolicy {
  const parsed = StoredConfirmPolicy.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** The policy with one site's choice set (undefined: forget it), bounded to MAX_SITES sites. */
export function withSiteChoice(
  policy: StoredConfirmPolicy,
  site: string,
  mode: ConfirmMode | undefined,
): StoredConfirmPolicy {
  const sites = { ...(policy.sites ?? {}) };
  delete sites[site];
  if (mode) sites[site] = mode;
  const kept = Object.entries(sites).slice(-MAX_SITES);
  return { ...policy, sites: Object.fromEntries(kept) };
}
