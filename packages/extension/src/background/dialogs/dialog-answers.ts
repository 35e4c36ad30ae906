import type { CallToolResult, InputMode } from '@tabmcp/protocol';
import { markPageText } from '@tabmcp/protocol';
import type { OpenDialog } from './open-dialogs';

/** What the agent reads about a dialog: tabmcp's id for it, its kind, its marked text, and how to answer it. */
export function dialogResult(dialog: OpenDialog, how: string, isError: boolean): CallToolResult {
  const answer =
    dialog.kind === 'prompt'
      ? 'call handle_dialog with accept true and text (the answer), or accept false (Cancel)'
      : dialog.kind === 'alert'
        ? 'call handle_dialog with accept true (OK)'
        : dialog.kind === 'beforeunload'
          ? 'call handle_dialog with accept true (leave the page) or false (stay)'
          : 'call handle_dialog with accept true (OK) or false (Cancel)';
  const opened = how === 'already open' ? 'The tab shows' : 'The page opened';
  const source = dialog.confirmed ? '' : ' (announced by the page; the browser did not confirm it)';
  // The call that opened it is still under way: it goes on once the dialog is answered.
  const goesOn = how === 'opened by this call' ? ' The call goes on once it is answered: read the page after.' : '';
  return json(
    {
      dialog: dialogFields(dialog),
      note: `${opened} ${article(dialog.kind)} dialog${source}${how === 'already open' ? ', so nothing ran' : ''}${how.includes('another') ? ` (${how})` : ''}. The page is blocked until it is answered: ${answer}.${goesOn}`,
    },
    isError,
  );
}

/** The dialog as the agent sees it: tabmcp's id, the kind, and the page's text marked as page text. */
export function dialogFields(dialog: OpenDialog): Record<string, unknown> {
  const origin = originOf(dialog.url);
  return {
    id: dialog.id,
    kind: dialog.kind,
    text: markPageText(dialog.message, origin, 'dialog text', 2_000),
    ...(dialog.defaultPrompt ? { defaultText: markPageText(dialog.defaultPrompt, origin, 'text', 500) } : {}),
  };
}

/**
 * A call refused before it was sent: the page does not run a script, so it would only wait behind
 * whatever blocks it. Nothing ran, so calling again once the tab answers is safe advice.
 */
export function notAnsweringResult(tabId: number, announced: OpenDialog | undefined): CallToolResult {
  const claim = announced
    ? ` The page announced ${article(announced.kind)} dialog, which the browser has not confirmed (it opened while tabmcp was not watching the tab, or the page only claims it): ${markPageText(announced.message, originOf(announced.url), 'dialog text', 500)}.`
    : ' It may show a dialog that opened while tabmcp was not watching the tab, or be busy.';
  return errorText(
    `The page in tab ${tabId} does not answer, so the call was not sent and nothing ran.${claim} Ask the user to look at the tab (and answer any dialog there), then call again.`,
  );
}

/**
 * The page stopped answering while a call ran, and no browser event says why. The call reached the
 * page and goes on when the page does, so the agent is never told to call again (issue 38).
 */
export function stoppedAnsweringResult(tabId: number, tool: string, mode: InputMode): CallToolResult {
  const why =
    mode === 'synthetic'
      ? 'tabmcp runs with --input synthetic and cannot see or answer dialogs: ask the user to look at the tab and answer any dialog there (or restart tabmcp with --input auto).'
      : 'tabmcp could not watch the tab for dialogs: ask the user to look at the tab and answer any dialog there.';
  return errorText(
    `The page in tab ${tabId} stopped answering while "${tool}" ran, perhaps because it shows a dialog (alert, confirm, prompt or "Leave site?"), perhaps because it is busy. The call may still be running: it goes on once the page does. ${why} Then read the page (get_page_content) to see what "${tool}" did before you repeat it.`,
  );
}

export function article(kind: OpenDialog['kind']): string {
  return kind === 'alert' ? 'an alert' : kind === 'beforeunload' ? 'a "Leave site?" (beforeunload)' : `a ${kind}`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unknown page';
  }
}

export function json(value: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

export function errorText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
