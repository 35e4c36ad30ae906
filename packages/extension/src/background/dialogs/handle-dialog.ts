// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { type CallToolResult, errorMessage } from '@tabmcp/protocol';
import * as z from 'zod/mini';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import { inputMode } from '../input-mode';
import { article, dialogFields, dialogResult, errorText, json } from './dialog-answers';
import { type OpenDialog, type OpenDialogs, sameDialog } from './open-dialogs';
import { pageAnswers } from './page-answers';

const HandleDialogArgs = z.strictObject({
  accept: z.boolean(),
  text: z.optional(z.string().check(z.maxLength(10_000))),
  /** The id an earlier answer gave the dialog: only that dialog is answered. */
  dialog: z.optional(z.string().check(z.maxLength(64))),
});
/** How long the page gets to run a script once its dialog was answered, before it counts as blocked again. */
const AFTER_ANSWER_PROBE_MS = 1_000;
/** A dialog the page announced while the debugger watched is reported by the browser within this (decision 257). */
const BROWSER_SHOWS_WITHIN_MS = 2_000;

/**
 * handle_dialog: answers, over CDP, the dialog the browser shows in the tab, and only when it is the
 * dialog the agent was shown (its id, or its kind and text): a page cannot slip another dialog under
 * the agent's answer (issue 38). Says who can answer when tabmcp cannot.
 */
export async function handleDialog(
  dialogs: OpenDialogs,
  debuggers: DebuggerSessions,
  tabId: number,
  raw: Record<string, unknown>,
): Promise<CallToolResult> {
  const parsed = HandleDialogArgs.safeParse(raw);
  if (!parsed.success)
    return errorText(
      "handle_dialog takes accept (true: OK, false: Cancel), text (a prompt's answer) and dialog (the id an answer gave the dialog).",
    );
  const { accept, text, dialog: named } = parsed.data;
  if ((await inputMode()) === 'synthetic') {
    const claimed = dialogs.confirmed(tabId) ?? dialogs.announced(tabId);
    return errorText(
      `${claimed ? `The page shows ${article(claimed.kind)} dialog. ` : ''}tabmcp runs with --input synthetic and does not use the debugger, so it cannot answer dialogs: ask the user to answer it in the browser, or restart tabmcp with --input auto.`,
    );
  }
  // Announced by the page a moment before the browser shows it: the browser's word is waited for, never taken from the page.
  const open =
    dialogs.confirmed(tabId) ??
    (dialogs.announced(tabId) && debuggers.hearsDialogs(tabId)
      ? await dialogs.untilConfirmed(tabId, BROWSER_SHOWS_WITHIN_MS)
      : undefined);
  if (!open) return noDialogShown(dialogs, tabId);
  const refused = notTheDialogShown(dialogs.shown(tabId), open, named, tabId);
  if (refused) return refused;
  try {
    await debuggers.send(tabId, 'Page.handleJavaScriptDialog', {
      accept,
      ...(text === undefined ? {} : { promptText: text }),
    });
  } catch (error) {
    if (!/no dialog/i.test(errorMessage(error))) throw error;
    dialogs.answered(tabId, open.id);
    return errorText(
      `No dialog is open in tab ${tabId} any more (the user may have answered it). Call get_page_content to see the page.`,
    );
  }
  dialogs.answered(tabId, open.id);
  // A page that opens its next dialog right away (a confirm, then an alert) is blocked again at once.
  const answers = await pageAnswers(tabId, AFTER_ANSWER_PROBE_MS);
  const what = `${accept ? 'Accepted' : 'Dismissed'} the ${open.kind} dialog`;
  const next = dialogs.confirmed(tabId);
  if (next) {
    dialogs.noteShown(tabId, next);
    return dialogResult(next, `${what}; the page opened another`, false);
  }
  return json({
    done: `${what}${text !== undefined && open.kind === 'prompt' ? ' with the text given' : ''}.`,
    ...(answers ? { next: 'Call get_page_content to see the page now.' } : { note: 'The page is still busy.' }),
  });
}

/** No dialog the browser reported: none, or one CDP cannot answer (it opened while tabmcp did not watch). */
async function noDialogShown(dialogs: OpenDialogs, tabId: number): Promise<CallToolResult> {
  const announced = dialogs.announced(tabId);
  if (announced && !(await pageAnswers(tabId, AFTER_ANSWER_PROBE_MS / 2)))
    return errorText(
      `The page's ${announced.kind} dialog opened while tabmcp was not watching the tab (or the page only claims it), so tabmcp cannot answer it: ask the user to answer it in the browser.`,
    );
  if (announced) dialogs.notShown(tabId);
  return errorText(`No dialog is open in tab ${tabId}. Call get_page_content to see the page.`);
}

/**
 * The refusal when the dialog open is not the one the agent was shown (named by its id, else the
 * last one an answer showed in this tab), or undefined when it is. The refusal shows the dialog
 * that is open and its id, so the agent decides on that one knowingly.
 */
function notTheDialogShown(
  shown: OpenDialog | undefined,
  open: OpenDialog,
  named: string | undefined,
  tabId: number,
): CallToolResult | undefined {
  const matches =
    named === undefined
      ? shown !== undefined && (shown.id === open.id || sameDialog(shown, open))
      : named === open.id || (shown?.id === named && sameDialog(shown, open));
  if (matches) return undefined;
  const expected =
    named !== undefined && shown?.id !== named && named !== open.id
      ? `dialog "${named}" is not open in tab ${tabId}`
      : shown
        ? `you were shown ${article(shown.kind)} dialog (${shown.id}), which is no longer open`
        : 'no answer has shown you this dialog yet';
  return json(
    {
      refused: `Nothing was answered: ${expected}. The tab shows the dialog below. Read it; to answer it, call handle_dialog with dialog "${open.id}".`,
      dialog: dialogFields(open),
    },
    true,
  );
}
