import { HANDLE_DIALOG_CALL } from '@tabmcp/protocol';
import { z } from 'zod';
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
  description:
    'Answer the dialog (alert, confirm, prompt, "Leave site?") the focused tab shows: accept true is OK/Leave, false is Cancel/Stay; text answers a prompt.',
  input: z
    .object({
      accept: z.boolean(),
      text: z.string().max(10_000).optional(),
      tabId: z.number().int().nonnegative().optional().describe('default: the focused tab'),
    })
    .strict(),
  handler: async ({ accept, text, tabId }, session) => {
    const target = tabId ?? session.focusedTabId;
    if (target === null || !session.tabs.has(target)) return errorResult(noSuchTab(target ?? -1, session.tabs.keys()));
    return session.connection.callTool(
      target,
      HANDLE_DIALOG_CALL,
      { accept, ...(text === undefined ? {} : { text }) },
      session.timings.pageToolTimeoutMs,
    );
  },
});
