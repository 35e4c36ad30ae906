import { ConfirmMode, SiteName } from '@tabmcp/protocol';
import {
  CONFIRM_POLICY_KEY,
  parseStoredPolicy,
  type StoredConfirmPolicy,
  withSiteChoice,
} from '../background/confirm/confirm-policy';

/**
 * The options page's confirmation policy (docs/user-guide.md, "Asking before it matters"): a
 * default for sites without a choice, and a choice per site, kept in chrome.storage.local where
 * the background reads it (background/confirm/policy-store.ts).
 */
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const defaultSelect = byId<HTMLSelectElement>('confirm-default');
const siteForm = byId<HTMLFormElement>('confirm-site-form');
const siteInput = byId<HTMLInputElement>('confirm-site');
const siteMode = byId<HTMLSelectElement>('confirm-site-mode');
const siteStrict = byId<HTMLInputElement>('confirm-site-strict');
const sitesList = byId<HTMLUListElement>('confirm-sites');
const status = byId<HTMLParagraphElement>('confirm-status');

async function stored(): Promise<StoredConfirmPolicy> {
  return parseStoredPolicy((await chrome.storage.local.get(CONFIRM_POLICY_KEY))[CONFIRM_POLICY_KEY]);
}

async function save(policy: StoredConfirmPolicy, said: string): Promise<void> {
  try {
    await chrome.storage.local.set({ [CONFIRM_POLICY_KEY]: policy });
    status.textContent = said;
  } catch (error) {
    status.textContent = `Could not save: ${String(error)}`;
  }
  render(policy);
}

function render(policy: StoredConfirmPolicy): void {
  defaultSelect.value = policy.default ?? '';
  const strict = new Set(policy.strictSites ?? []);
  const sites = new Set([...Object.keys(policy.sites ?? {}), ...strict]);
  sitesList.replaceChildren(
    ...[...sites].sort().map((site) => {
      const item = document.createElement('li');
      const mode = policy.sites?.[site] ?? 'the default';
      item.textContent = `${site}: ${mode}${strict.has(site) ? ', page tools must say read-only' : ''} `;
      const forget = document.createElement('button');
      forget.type = 'button';
      forget.textContent = 'Forget';
      forget.addEventListener('click', async () => {
        const current = await stored();
        const next = withSiteChoice(current, site, undefined);
        await save(
          { ...next, strictSites: (current.strictSites ?? []).filter((kept) => kept !== site) },
          `Forgot ${site}.`,
        );
      });
      item.append(forget);
      return item;
    }),
  );
}

void stored().then(render);

defaultSelect.addEventListener('change', async () => {
  const parsed = ConfirmMode.safeParse(defaultSelect.value);
  const { default: _old, ...rest } = await stored();
  await save(parsed.success ? { ...rest, default: parsed.data } : rest, 'Saved.');
});

siteForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const site = SiteName.safeParse(siteInput.value.trim().toLowerCase());
  const mode = ConfirmMode.safeParse(siteMode.value);
  if (!site.success || !mode.success) {
    status.textContent = 'Give a host name, such as shop.example.com.';
    return;
  }
  const current = await stored();
  const strictSites = (current.strictSites ?? []).filter((kept) => kept !== site.data);
  if (siteStrict.checked) strictSites.push(site.data);
  await save({ ...withSiteChoice(current, site.data, mode.data), strictSites }, `Saved for ${site.data}.`);
});
