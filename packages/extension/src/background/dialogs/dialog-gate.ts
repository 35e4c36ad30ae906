import { type CallToolResult, HANDLE_DIALOG_CALL, type Logger, waitUntil } from '@tabmcp/protocol';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import { noteAgentFiles } from '../debugger/trusted-input';
import { inputMode } from '../input-mode';
import { blockedResult, dialogResult, errorText } from './dialog-answers';
import { handleDialog } from './handle-dialog';
import { OpenDialogs } from './open-dialogs';
import { pageAnswers } from './page-answers';

/** A call still unanswered this long has its page probed: is its main thread blocked? */
const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 500;
/** Blocked this many probes in a row with no dialog heard: say so and stop waiting. */
const BLOCKED_PROBES = 2;
const STILL_OPEN_PROBE_MS = 300;

let dialogs: OpenDialogs | undefined;
let debuggers: DebuggerSessions | undefined;

/** The dialog open in a tab, if any (the confirmation gate asks before handle_dialog accepts a confirm). */
export const openDialogOf = (tabId: number) => dialogs?.get(tabId);

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
  if (toolName === HANDLE_DIALOG_CALL)
    return dialogs && debuggers
      ? handleDialog(dialogs, debuggers, tabId, args)
      : Promise.resolve(errorText('Dialogs are not watched in this browser.'));
  // Every agent call passes here: the files it names for an upload are the only ones the tab may send.
  noteAgentFiles(tabId, args);
  const watch = dialogs;
  if (!watch) return call();
  const open = watch.get(tabId);
  if (!open) return callWatched(watch, tabId, call);
  return stillOpen(tabId).then((blocked) => {
    if (blocked) return dialogResult(open, 'already open', true);
    // Closed without a word (the user answered it while the content script was reloading).
    watch.answered(tabId);
    return callWatched(watch, tabId, call);
  });
}

/** A dialog that is really open keeps its page from running a script. */
async function stillOpen(tabId: number): Promise<boolean> {
  return !(await pageAnswers(tabId, STILL_OPEN_PROBE_MS));
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
    { timeoutMs: 10 * 60_000, onTimeout: () => blockedResult(tabId, 'auto') },
  );
}

/**
 * While a call waits, probes its page now and then. A page that stopped running scripts is
 * probably showing a dialog nobody reported (under --input synthetic a beforeunload or a frame's
 * dialog; otherwise one opened before the debugger attached, which CDP never reports): the call is
 * answered with what is probably wrong and who can fix it.
 */
function probeWhileWaiting(tabId: number, done: (result: CallToolResult) => void): { stop(): void } {
  let stopped = false;
  let blocked = 0;
  let timer: ReturnType<typeof setTimeout>;
  const probe = async () => {
    if (stopped) return;
    blocked = (await pageAnswers(tabId, PROBE_TIMEOUT_MS)) ? 0 : blocked + 1;
    if (stopped) return;
    if (blocked >= BLOCKED_PROBES) {
      done(blockedResult(tabId, await inputMode()));
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
