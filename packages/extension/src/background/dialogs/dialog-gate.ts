import {
  type CallToolResult,
  errorMessage,
  HANDLE_DIALOG_CALL,
  type Logger,
  markPageText,
  waitUntil,
} from '@tabmcp/protocol';
import { z } from 'zod';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import { noteAgentFiles } from '../debugger/trusted-input';
import { inputMode } from '../input-mode';
import { type OpenDialog, OpenDialogs } from './open-dialogs';
import { pageAnswers } from './page-answers';

/** A call still unanswered this long has its page probed: is its main thread blocked? */
const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 500;
/** Blocked this many probes in a row with no dialog heard (no debugger): say so and stop waiting. */
const BLOCKED_PROBES = 2;

const HandleDialogArgs = z.object({ accept: z.boolean(), text: z.string().max(10_000).optional() }).strict();

let dialogs: OpenDialogs | undefined;
let debuggers: DebuggerSessions | undefined;

/** Starts hearing dialogs (call once, in the worker's first task: it adds listeners). */
export function startDialogWatch(sessions: DebuggerSessions, log: Logger): void {
  debuggers = sessions;
  dialogs = new OpenDialogs(sessions, log);
}

/**
 * The gate every call to a tab passes (docs/dom-tools.md, "Dialogs"): handle_dialog is answered
 * here; a tab with a dialog open answers at once that it has one; a call during which the page
 * opens one answers as soon as it is heard, with its kind and text. The call itself stays pending
 * in the hub until its page answers or times out, and its late answer is dropped.
 */
export function answerAroundDialogs(
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (toolName === HANDLE_DIALOG_CALL) return handleDialog(tabId, args);
  // Every agent call passes here: the files it names for an upload are the only ones the tab may send.
  noteAgentFiles(tabId, args);
  const watch = dialogs;
  if (!watch) return call();
  const open = watch.get(tabId);
  if (open) return Promise.resolve(dialogResult(open, 'already open', true));
  return callWatched(watch, tabId, call);
}

let callsInFlight = 0;

async function callWatched(
  watch: OpenDialogs,
  tabId: number,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  // Attached before the page can open a dialog: one opened earlier cannot be answered over CDP.
  const hold = `call ${++callsInFlight}`;
  const watched = debuggers !== undefined && (await inputMode()) !== 'synthetic';
  if (watched) {
    await debuggers?.attach(tabId).catch(() => {});
    debuggers?.hold(tabId, hold);
  }
  try {
    return await whileWatching(watch, tabId, call());
  } finally {
    if (watched) debuggers?.release(tabId, hold);
  }
}

function whileWatching(watch: OpenDialogs, tabId: number, answer: Promise<CallToolResult>): Promise<CallToolResult> {
  return waitUntil<CallToolResult>(
    (done, fail) => {
      answer.then(done, fail);
      const stop = watch.on('opened', (openedIn, dialog) => {
        if (openedIn === tabId) done(dialogResult(dialog, 'opened by this call', false));
      });
      const probing = probeWhileWaiting(tabId, done);
      return () => {
        stop();
        probing.stop();
      };
    },
    // The hub bounds the call itself; this only must never outlive it.
    { timeoutMs: 10 * 60_000, onTimeout: () => blockedResult(tabId) },
  );
}

/**
 * While a call waits, probes its page now and then. A page that stopped running scripts is
 * probably showing a dialog nobody announced (a beforeunload, or one opened before the content
 * script loaded): the debugger, when allowed, reports it as it attaches; without it, the call is
 * answered with what is probably wrong.
 */
function probeWhileWaiting(tabId: number, done: (result: CallToolResult) => void): { stop(): void } {
  let stopped = false;
  let blocked = 0;
  let timer: ReturnType<typeof setTimeout>;
  const probe = async () => {
    if (stopped) return;
    blocked = (await pageAnswers(tabId, PROBE_TIMEOUT_MS)) ? 0 : blocked + 1;
    if (stopped) return;
    if (blocked > 0 && (await inputMode()) !== 'synthetic') {
      await debuggers?.attach(tabId).catch(() => {});
    } else if (blocked >= BLOCKED_PROBES) {
      done(blockedResult(tabId));
      return;
    }
    timer = setTimeout(() => void probe(), PROBE_EVERY_MS);
  };
  timer = setTimeout(() => void probe(), PROBE_EVERY_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

async function handleDialog(tabId: number, raw: Record<string, unknown>): Promise<CallToolResult> {
  const parsed = HandleDialogArgs.safeParse(raw);
  if (!parsed.success)
    return errorText("handle_dialog takes accept (true: OK, false: Cancel) and text (a prompt's answer).");
  const { accept, text } = parsed.data;
  if (!dialogs || !debuggers) return errorText('Dialogs are not watched in this browser.');
  if ((await inputMode()) === 'synthetic') {
    const open = dialogs.get(tabId);
    return errorText(
      `${open ? `The page shows ${article(open.kind)} dialog. ` : ''}tabmcp runs with --input synthetic and does not use the debugger, so it cannot answer dialogs: ask the user to answer it in the browser, or restart tabmcp with --input auto.`,
    );
  }
  const open = dialogs.get(tabId);
  try {
    await debuggers.send(tabId, 'Page.handleJavaScriptDialog', {
      accept,
      ...(text === undefined ? {} : { promptText: text }),
    });
  } catch (error) {
    if (/no dialog/i.test(errorMessage(error))) {
      // CDP can answer only a dialog that opened while it was attached (docs/decisions.md, Stop 22).
      if (open && (await pageAnswers(tabId, PROBE_TIMEOUT_MS)) === false)
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
  const answers = await pageAnswers(tabId, PROBE_TIMEOUT_MS * 2);
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

function dialogResult(dialog: OpenDialog, how: string, isError: boolean): CallToolResult {
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

function blockedResult(tabId: number): CallToolResult {
  return errorText(
    `The page in tab ${tabId} stopped answering, probably because it shows a dialog (alert, confirm, prompt or "Leave site?"). tabmcp runs with --input synthetic and cannot see or answer dialogs: ask the user to answer it in the browser, then call again; or restart tabmcp with --input auto.`,
  );
}

function article(kind: OpenDialog['kind']): string {
  return kind === 'alert' ? 'an alert' : kind === 'beforeunload' ? 'a "Leave site?" (beforeunload)' : `a ${kind}`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unknown page';
  }
}

function json(value: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

function errorText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
