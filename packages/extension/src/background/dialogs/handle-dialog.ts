// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { type CallToolResult, errorMessage } from '@tabmcp/protocol';
import * as z from 'zod/mini';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import { inputMode } from '../input-mode';
import { article, dialogResult, errorText, json } from './dialog-answers';
import type { OpenDialogs } from './open-dialogs';
import { pageAnswers } from './page-answers';

const HandleDialogArgs = z.strictObject({
  accept: z.boolean(),
  text: z.optional(z.string().check(z.maxLength(10_000))),
});
/** How long the page gets to run a script once its dialog was answered, before it counts as blocked again. */
const AFTER_ANSWER_PROBE_MS = 1_000;
/** A dialog the page announced while the debugger watched is reported over CDP within this. */
const CDP_HEARS_WITHIN_MS = 2_000;

/** handle_dialog: answers the tab's dialog over CDP; says who can when tabmcp cannot. */
export async function handleDialog(
  dialogs: OpenDialogs,
  debuggers: DebuggerSessions,
  tabId: number,
  raw: Record<string, unknown>,
): Promise<CallToolResult> {
  const parsed = HandleDialogArgs.safeParse(raw);
  if (!parsed.success)
    return errorText("handle_dialog takes accept (true: OK, false: Cancel) and text (a prompt's answer).");
  const { accept, text } = parsed.data;
  if ((await inputMode()) === 'synthetic') {
    const open = dialogs.get(tabId);
    return errorText(
      `${open ? `The page shows ${article(open.kind)} dialog. ` : ''}tabmcp runs with --input synthetic and does not use the debugger, so it cannot answer dialogs: ask the user to answer it in the browser, or restart tabmcp with --input auto.`,
    );
  }
  const open = dialogs.get(tabId);
  // Announced by the page a moment before the browser shows it: wait for CDP to know it too.
  if (open?.watched && !open.heardOverCdp) await dialogs.untilHeardOverCdp(tabId, CDP_HEARS_WITHIN_MS);
  try {
    await debuggers.send(tabId, 'Page.handleJavaScriptDialog', {
      accept,
      ...(text === undefined ? {} : { promptText: text }),
    });
  } catch (error) {
    if (/no dialog/i.test(errorMessage(error))) {
      // CDP can answer only a dialog that opened while it was attached (docs/decisions.md, 141).
      if (open && (await pageAnswers(tabId, AFTER_ANSWER_PROBE_MS / 2)) === false)
        return errorText(
          `The page's ${open.kind} dialog opened while tabmcp was not watching the tab, so it cannot answer it: ask the user to answer it in the browser, then call again.`,
        );
      dialogs.answered(tabId);
      return errorText(`No dialog is open in tab ${tabId}. Call get_page_content to see the page.`);
    }
    throw error;
  }
  dialogs.answered(tabId);
  // A page that opens its next dialog right away (a confirm, then an alert) is blocked again at once.
  const answers = await pageAnswers(tabId, AFTER_ANSWER_PROBE_MS);
  const next = dialogs.get(tabId);
  const what = open
    ? `${accept ? 'Accepted' : 'Dismissed'} the ${open.kind} dialog`
    : `${accept ? 'Accepted' : 'Dismissed'} the dialog`;
  if (next) return dialogResult(next, `${what}; the page opened another`, false);
  return json({
    done: `${what}${text !== undefined && open?.kind === 'prompt' ? ' with the text given' : ''}.`,
    ...(answers ? { next: 'Call get_page_content to see the page now.' } : { note: 'The page is still busy.' }),
  });
}
