import { HANDLE_DIALOG_CALL } from '@tabmcp/protocol';
import { z } from 'zod';
import { sayingWhenWaiting } from '../person-wait';
import { defineTool, errorResult } from '../tool-definition';
import { noSuchTab } from '../tool-errors';

/**
 * handle_dialog (issue 23): answers the native dialog (alert, confirm, prompt, "Leave site?") a tab
 * shows. The extension answers it itself through chrome.debugger (docs/dom-tools.md, "Dialogs").
 */
export const dialogTool = defineTool({
  name: 'handle_dialog',
  title: 'Answer a dialog',
  offeredIn: ['TAB_FOCUSED'],
  // Its 500-odd bytes ride on every model turn: listed only while an answer's dialog waits (issue 37).
  listedWhileDialogWaits: true,
  description:
    'Answer a dialog (alert, confirm, prompt, "Leave site?") an answer showed: accept true is OK/Leave, false is Cancel/Stay; text answers a prompt; dialog: the id that answer gave (default: the last one in the tab); tabId default: the focused tab.',
  input: z
    .object({
      accept: z.boolean(),
      text: z.string().max(10_000).optional(),
      dialog: z.string().max(64).optional(),
      tabId: z.number().int().nonnegative().optional(),
    })
    .strict(),
  handler: async ({ accept, text, dialog, tabId }, session, progress) => {
    const target = tabId ?? session.focusedTabId;
    if (target === null || !session.tabs.has(target)) return errorResult(noSuchTab(target ?? -1, session.tabs.keys()));
    // Accepting a confirm dialog may wait for the person: the agent hears so (person-wait.ts).
    const answer = await sayingWhenWaiting(progress, (onWaiting) =>
      session.connection.callTool(
        target,
        HANDLE_DIALOG_CALL,
        // The extension answers only the dialog the agent was shown, and only on an allowed site (issue 38).
        { accept, ...(text === undefined ? {} : { text }), ...(dialog === undefined ? {} : { dialog }) },
        session.timings.pageToolTimeoutMs,
        onWaiting,
      ),
    );
    // Answered with no next dialog, handle_dialog leaves the list (docs/dom-tools.md, "Dialogs").
    return session.tabAnswered(target, answer, true);
  },
});
