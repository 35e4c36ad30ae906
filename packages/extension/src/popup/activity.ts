import {
  ACTIVITY_RECORD_KEY,
  type ActivityEntry,
  ActivityRecord,
  CLEAR_ACTIVITY_MESSAGE,
  type Confirmation,
} from '@tabmcp/protocol';

/**
 * "What agents did": the record the background keeps of every agent call in this browser
 * (background/confirm/activity-record.ts), per site, in the order the calls were made, with how each
 * ended and who let a consequential one run. Page text (a control's caption) is marked as such.
 */
const ANSWER_TEXT: Record<ActivityEntry['answer'], string> = {
  done: '✓ done',
  failed: '✗ failed',
  denied: '✗ denied',
};
const CONFIRMATION_TEXT: Record<Confirmation, string> = {
  confirmed: 'confirmed by you',
  'allowed by policy': 'allowed by policy, not asked',
  'denied by the person': 'denied by you',
  'denied by policy': 'denied by policy',
  'no answer': 'not answered in time',
};

function node<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const created = document.createElement(tag);
  if (text !== undefined) created.textContent = text;
  if (className) created.className = className;
  return created;
}

export async function renderActivity(list: HTMLElement): Promise<void> {
  const stored = await chrome.storage.local.get(ACTIVITY_RECORD_KEY);
  const parsed = ActivityRecord.safeParse(stored[ACTIVITY_RECORD_KEY]);
  const entries = parsed.success ? parsed.data : [];
  if (!entries.length) {
    list.replaceChildren(node('li', 'Nothing yet.', 'muted'));
    return;
  }
  const bySite = new Map<string, ActivityEntry[]>();
  for (const entry of entries) bySite.set(entry.site, [...(bySite.get(entry.site) ?? []), entry]);
  // The site acted on last comes first; each site's calls in the order they were made.
  const sites = [...bySite].sort(([, a], [, b]) => (b.at(-1)?.at ?? 0) - (a.at(-1)?.at ?? 0));
  list.replaceChildren(
    ...sites.map(([site, calls]) => {
      const group = node('li', undefined, 'site-record');
      group.append(node('div', site || '(no site)', 'title'));
      const ordered = node('ol', undefined, 'record');
      ordered.append(...calls.map(renderEntry));
      group.append(ordered);
      return group;
    }),
  );
}

function renderEntry(entry: ActivityEntry): HTMLLIElement {
  const item = node('li', undefined, `record-entry ${entry.answer}`);
  item.append(
    node('span', `${new Date(entry.at).toLocaleTimeString()} `, 'muted'),
    node('span', `${entry.tool} `, 'tool-name'),
    node('span', ANSWER_TEXT[entry.answer], entry.answer === 'done' ? 'ok' : 'error'),
  );
  if (entry.confirmation) item.append(node('span', ` · ${CONFIRMATION_TEXT[entry.confirmation]}`, 'confirmation'));
  if (entry.what) item.append(node('div', `page text: “${entry.what}”`, 'muted page-text'));
  return item;
}

export async function clearActivity(): Promise<void> {
  await chrome.runtime.sendMessage({ type: CLEAR_ACTIVITY_MESSAGE });
}
