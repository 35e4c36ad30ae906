import {
  type ConfirmAnswer,
  ConfirmPageMessage,
  type ConfirmRequest,
  PERSON_WAIT_MS,
  waitUntil,
} from '@tabmcp/protocol';

/** How the person answered: a button, closing the prompt, or nothing in time. */
export type PersonAnswer = ConfirmAnswer | 'closed' | 'no answer';

interface Prompt {
  request: ConfirmRequest;
  answer: (answer: PersonAnswer) => void;
  windowId?: number;
}

const CONFIRM_PAGE = 'confirm.html';
const prompts = new Map<string, Prompt>();
let promptCount = 0;
/** The tabs of the prompt windows: the extension's own page, never an agent's tab (own-pages.ts). */
const promptTabs = new Set<number>();

/** Whether the tab shows a confirmation prompt; a tab is known by its URL once, then by its id. */
export function isPromptTab(tab: chrome.tabs.Tab | number): boolean {
  if (typeof tab === 'number') return promptTabs.has(tab);
  const url = tab.pendingUrl ?? tab.url ?? '';
  if (tab.id !== undefined && url.startsWith(chrome.runtime.getURL(CONFIRM_PAGE))) promptTabs.add(tab.id);
  return tab.id !== undefined && promptTabs.has(tab.id);
}

export function forgetPromptTab(tabId: number): void {
  promptTabs.delete(tabId);
}

/**
 * Shows the person a prompt outside the page: a small window of the extension's own page
 * (confirm.html), which no page can script or answer. Resolves with their answer, 'closed' when they
 * closed it, or 'no answer' after PERSON_WAIT_MS, when the prompt is withdrawn.
 */
export function askPerson(request: ConfirmRequest): Promise<PersonAnswer> {
  const id = `${Date.now().toString(36)}-${++promptCount}`;
  return waitUntil<PersonAnswer>(
    (done) => {
      const prompt: Prompt = { request, answer: done };
      prompts.set(id, prompt);
      chrome.windows
        .create({
          type: 'popup',
          url: chrome.runtime.getURL(`${CONFIRM_PAGE}?id=${id}`),
          width: 480,
          height: 600,
          focused: true,
        })
        .then(
          (created) => {
            prompt.windowId = created?.id;
            for (const tab of created?.tabs ?? []) if (tab.id !== undefined) promptTabs.add(tab.id);
            // Answered before the window was known (a fast click): it is closed by the cleanup below.
            if (!prompts.has(id) && created?.id !== undefined) void chrome.windows.remove(created.id).catch(() => {});
          },
          () => done('closed'),
        );
      const onRemoved = (windowId: number) => {
        if (windowId === prompt.windowId) done('closed');
      };
      chrome.windows.onRemoved.addListener(onRemoved);
      return () => {
        prompts.delete(id);
        chrome.windows.onRemoved.removeListener(onRemoved);
        if (prompt.windowId !== undefined) void chrome.windows.remove(prompt.windowId).catch(() => {});
      };
    },
    { timeoutMs: PERSON_WAIT_MS, onTimeout: () => 'no answer' },
  );
}

/**
 * Answers confirm.html: what to show, and the person's answer. Only the extension's own confirm page
 * is heard; a content script (which a page may have compromised) sends with the page's URL.
 */
export function listenToConfirmPage(): void {
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL(CONFIRM_PAGE))) return false;
    const parsed = ConfirmPageMessage.safeParse(raw);
    if (!parsed.success) return false;
    const message = parsed.data;
    const prompt = prompts.get(message.id);
    if (message.type === 'tabmcp/confirm-get') sendResponse(prompt ? { request: prompt.request } : { gone: true });
    else {
      prompt?.answer(message.answer);
      sendResponse({ answered: prompt !== undefined });
    }
    return false;
  });
}
