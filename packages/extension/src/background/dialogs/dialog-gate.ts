import { siteOf } from '@tabmcp/hub';
import {
  type CallToolResult,
  ErrorCode,
  HANDLE_DIALOG_CALL,
  type InputMode,
  type Logger,
  ProtocolError,
  type SiteAccess,
  waitUntil,
} from '@tabmcp/protocol';
import type { DebuggerSessions } from '../debugger/debugger-sessions';
import { noteAgentFiles } from '../debugger/trusted-input';
import { inputMode } from '../input-mode';
import { dialogResult, errorText, notAnsweringResult, stoppedAnsweringResult } from './dialog-answers';
import { handleDialog } from './handle-dialog';
import { type OpenDialog, OpenDialogs } from './open-dialogs';
import { pageAnswers } from './page-answers';

/** Where no browser event can tell, a call still unanswered this long has its page probed: is its main thread blocked? */
const PROBE_EVERY_MS = 1_000;
const PROBE_TIMEOUT_MS = 500;
/** Blocked this many probes in a row with no dialog heard: say so and stop waiting. */
const BLOCKED_PROBES = 2;
const STILL_OPEN_PROBE_MS = 300;

/** The hub's site decisions, as the gate reads them (the Hub itself). */
export interface SiteDecisions {
  tabs(): ReadonlyArray<{ tabId: number; url?: string | undefined }>;
  siteAccess(url: string | undefined): SiteAccess;
}

let dialogs: OpenDialogs | undefined;
let debuggers: DebuggerSessions | undefined;
let sites: SiteDecisions | undefined;

/** The dialog the browser reported open in a tab, if any (the confirmation gate asks before handle_dialog accepts a confirm). */
export const openDialogOf = (tabId: number) => dialogs?.confirmed(tabId);

/** Starts hearing dialogs (call once, in the worker's first task: it adds listeners). */
export function startDialogWatch(sessions: DebuggerSessions, decisions: SiteDecisions, log: Logger): void {
  debuggers = sessions;
  sites = decisions;
  dialogs = new OpenDialogs(sessions, log);
}

/**
 * The gate every call to a tab passes (docs/dom-tools.md, "Dialogs"): the tab's site must be allowed
 * before anything of it is touched; handle_dialog is answered here; a tab whose dialog the browser
 * showed answers at once that it has one; a call during which the browser shows one answers as soon
 * as it is heard, with its kind and text. The call itself stays pending in the hub until its page
 * answers or times out, and its late answer is dropped.
 */
export async function answerAroundDialogs(
  tabId: number,
  toolName: string,
  args: Record<string, unknown>,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  if (toolName === HANDLE_DIALOG_CALL) {
    if (!dialogs || !debuggers) return errorText('Dialogs are not watched in this browser.');
    // The browser's own URL of the tab: a dialog may block a page before its tools ever registered.
    const urls = await browserUrls(tabId);
    await refuseUnlessAllowed(tabId, urls.length > 0 ? urls : [''], 'answer or read its dialogs');
    return handleDialog(dialogs, debuggers, tabId, args);
  }
  // As the hub would refuse the call, but before the debugger attaches or a dialog's text is read.
  await refuseUnlessAllowed(tabId, await urlsOf(tabId), 'use its tools');
  // Every agent call passes here: the files it names for an upload are the only ones the tab may send.
  noteAgentFiles(tabId, args);
  const watch = dialogs;
  if (!watch) return call();
  const open = watch.confirmed(tabId);
  if (open) {
    if (!(await pageAnswers(tabId, STILL_OPEN_PROBE_MS))) {
      watch.noteShown(tabId, open);
      return dialogResult(open, 'already open', true);
    }
    // Closed without a word (the user answered it while the debugger was detached).
    watch.answered(tabId, open.id);
  }
  return callWatched(watch, tabId, toolName, call);
}

let callsInFlight = 0;

async function callWatched(
  watch: OpenDialogs,
  tabId: number,
  toolName: string,
  call: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const mode = await inputMode();
  const sessions = debuggers;
  // Attached before the call is sent: every dialog the page opens from then on is reported by the
  // browser itself (one opened earlier cannot be answered over CDP: docs/decisions.md, 141).
  const hold = `call ${++callsInFlight}`;
  const watched =
    sessions !== undefined &&
    mode !== 'synthetic' &&
    (await sessions.attach(tabId).then(
      () => true,
      () => false,
    ));
  if (watched) sessions.hold(tabId, hold);
  try {
    // The page did not answer Page.enable: blocked (a dialog that opened while nobody watched) or busy.
    const unheard = !watched || !sessions.hearsDialogs(tabId);
    if (unheard && (watch.announced(tabId) || watched) && !(await pageAnswers(tabId, STILL_OPEN_PROBE_MS)))
      return notAnsweringResult(tabId, watch.announced(tabId));
    // The page ran a script: what it announced before is not shown.
    if (unheard) watch.notShown(tabId);
    return await whileWatching(watch, tabId, toolName, call(), watched ? 'browser' : 'probes', mode);
  } finally {
    if (watched) sessions.release(tabId, hold);
  }
}

/**
 * Waits for the call's answer, or for a dialog that blocks it. `browser`: the debugger was attached
 * before the call, so the browser reports every dialog the call opens, and nothing else is believed:
 * a page busy for a while is only busy, and its call is answered when it is done. `probes` (no
 * debugger: --input synthetic, or it could not attach): the page's announcement, checked by a probe,
 * and probes now and then; a call whose page stopped answering is told it may still be running.
 */
function whileWatching(
  watch: OpenDialogs,
  tabId: number,
  toolName: string,
  answer: Promise<CallToolResult>,
  source: 'browser' | 'probes',
  mode: InputMode,
): Promise<CallToolResult> {
  return waitUntil<CallToolResult>(
    (done, fail) => {
      answer.then(done, fail);
      const opened = (dialog: OpenDialog) => {
        watch.noteShown(tabId, dialog);
        done(dialogResult(dialog, 'opened by this call', false));
      };
      const stopConfirmed = watch.on('confirmed', (openedIn, dialog) => openedIn === tabId && opened(dialog));
      if (source === 'browser') return stopConfirmed;
      const probing = probeWhileWaiting(watch, tabId, opened, () =>
        done(stoppedAnsweringResult(tabId, toolName, mode)),
      );
      return () => {
        stopConfirmed();
        probing.stop();
      };
    },
    // The hub bounds the call itself; this only must never outlive it.
    { timeoutMs: 10 * 60_000, onTimeout: () => stoppedAnsweringResult(tabId, toolName, mode) },
  );
}

/**
 * Without the debugger, the page's announcement is all that names a dialog, and a page can make one
 * up: it is believed only once the page stops running scripts (a real dialog blocks it at once).
 * A page that stops answering with nothing announced is reported as such, never as a call to repeat.
 */
function probeWhileWaiting(
  watch: OpenDialogs,
  tabId: number,
  opened: (dialog: OpenDialog) => void,
  stoppedAnswering: () => void,
): { stop(): void } {
  let stopped = false;
  let blocked = 0;
  let timer: ReturnType<typeof setTimeout>;
  const probe = async () => {
    if (stopped) return;
    const answers = await pageAnswers(tabId, PROBE_TIMEOUT_MS);
    if (stopped) return;
    const announced = watch.announced(tabId);
    if (answers) {
      blocked = 0;
      if (announced) watch.notShown(tabId);
    } else if (announced) return opened(announced);
    else if (++blocked >= BLOCKED_PROBES) return stoppedAnswering();
    timer = setTimeout(() => void probe(), PROBE_EVERY_MS);
  };
  const stopAnnounced = watch.on('announced', (announcedIn) => {
    if (announcedIn !== tabId) return;
    clearTimeout(timer);
    void probe();
  });
  timer = setTimeout(() => void probe(), PROBE_EVERY_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      stopAnnounced();
    },
  };
}

/**
 * The URLs the hub's site decision applies to for a call: the registered page's (what the hub checks),
 * else the browser's web pages (a page that has no tools yet: the hub refuses the call itself).
 */
async function urlsOf(tabId: number): Promise<string[]> {
  const registered = sites?.tabs().find((tab) => tab.tabId === tabId);
  if (registered) return [registered.url ?? ''];
  return (await browserUrls(tabId).catch(() => [])).filter((url) => siteOf(url) !== undefined);
}

/** What the tab shows and is loading, as the browser says (the page cannot write either). */
async function browserUrls(tabId: number): Promise<string[]> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab)
    throw new ProtocolError(ErrorCode.TabNotFound, `No tab with id ${tabId}. Call list_tabs to see the open tabs.`);
  return [tab.url, tab.pendingUrl].filter((url): url is string => url !== undefined && url !== '');
}

/** The hub's site policy, as every other page method applies it (hub call-router.ts, proxy-mode/site-guard.ts). */
async function refuseUnlessAllowed(tabId: number, urls: string[], what: string): Promise<void> {
  if (!sites) return;
  for (const url of urls) {
    const access = sites.siteAccess(url);
    if (access === 'allowed') continue;
    throw new ProtocolError(
      ErrorCode.SiteNotAllowed,
      `The site ${siteOf(url) ?? (url.slice(0, 200) || 'of this tab')} is ${access === 'blocked' ? 'blocked' : 'not allowed yet'}: the user must allow it in the tabmcp popup before tabmcp may ${what} (tab ${tabId}).`,
    );
  }
}
