import type { ConfirmMode } from '@tabmcp/protocol';
import {
  CONFIRM_POLICY_KEY,
  choosePolicy,
  parseStoredPolicy,
  type SitePolicyChoice,
  type StoredConfirmPolicy,
  withSiteChoice,
} from './confirm-policy';

let fromAgent: ConfirmMode | undefined;
/** Read once, then kept current by storage.onChanged: every call asks for it. */
let stored: Promise<StoredConfirmPolicy> | undefined;

/** The connected agent's `--confirm` (or automation's allow), sent with its connect; the last agent wins. */
export function setAgentConfirmMode(mode: ConfirmMode | undefined): void {
  if (mode !== undefined) fromAgent = mode;
}

/** A headless browser shows nobody a prompt (its user agent says HeadlessChrome). */
export function isHeadless(): boolean {
  return /HeadlessChrome/.test(navigator.userAgent);
}

export async function policyOf(site: string | undefined): Promise<SitePolicyChoice> {
  return choosePolicy(await storedPolicy(), fromAgent, isHeadless(), site);
}

/** "Always for this site": the person's choice, kept until they change it on the options page. */
export async function rememberSiteChoice(site: string, mode: ConfirmMode): Promise<void> {
  const next = withSiteChoice(await storedPolicy(), site, mode);
  stored = Promise.resolve(next);
  await chrome.storage.local.set({ [CONFIRM_POLICY_KEY]: next });
}

function storedPolicy(): Promise<StoredConfirmPolicy> {
  stored ??= readStored();
  return stored;
}

async function readStored(): Promise<StoredConfirmPolicy> {
  chrome.storage.onChanged.addListener((changes, area) => {
    const change = changes[CONFIRM_POLICY_KEY];
    if (area === 'local' && change) stored = Promise.resolve(parseStoredPolicy(change.newValue));
  });
  return parseStoredPolicy((await chrome.storage.local.get(CONFIRM_POLICY_KEY))[CONFIRM_POLICY_KEY]);
}
