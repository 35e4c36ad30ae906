import type { CallToolResult, InputMode } from '@tabmcp/protocol';
import { markPageText } from '@tabmcp/protocol';
import type { OpenDialog } from './open-dialogs';

/** What the agent reads about a dialog: its kind, its marked text, and how to answer it. */
export function dialogResult(dialog: OpenDialog, how: string, isError: boolean): CallToolResult {
  const origin = originOf(dialog.url);
  const answer =
    dialog.kind === 'prompt'
      ? 'call handle_dialog with accept true and text (the answer), or accept false (Cancel)'
      : dialog.kind === 'alert'
        ? 'call handle_dialog with accept true (OK)'
        : dialog.kind === 'beforeunload'
          ? 'call handle_dialog with accept true (leave the page) or false (stay)'
          : 'call handle_dialog with accept true (OK) or false (Cancel)';
  return json(
    {
      dialog: {
        kind: dialog.kind,
        text: markPageText(dialog.message, origin, 'dialog text', 2_000),
        ...(dialog.defaultPrompt ? { defaultText: markPageText(dialog.defaultPrompt, origin, 'text', 500) } : {}),
      },
      note: `${how === 'already open' ? 'The tab shows' : 'The page opened'} ${article(dialog.kind)} dialog${how === 'already open' ? ', so nothing ran' : ''}${how.includes('another') ? ` (${how})` : ''}. The page is blocked until it is answered: ${answer}.`,
    },
    isError,
  );
}

export function blockedResult(tabId: number, mode: InputMode): CallToolResult {
  const why =
    mode === 'synthetic'
      ? 'tabmcp runs with --input synthetic and cannot see or answer dialogs: ask the user to answer it in the browser, then call again; or restart tabmcp with --input auto.'
      : 'tabmcp did not see it open (it opened before tabmcp watched the tab): ask the user to answer it in the browser, then call again.';
  return errorText(
    `The page in tab ${tabId} stopped answering, probably because it shows a dialog (alert, confirm, prompt or "Leave site?"). ${why}`,
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
