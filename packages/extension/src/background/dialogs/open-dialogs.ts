// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { ListenerSet, type Logger, waitUntil } from '@tabmcp/protocol';
import * as z from 'zod/mini';
import type { DebuggerSessions } from '../debugger/debugger-sessions';

export interface OpenDialog {
  kind: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  /** A prompt's default answer. */
  defaultPrompt?: string;
  /** The page that opened it, for the page-text marker. */
  url: string;
  /** performance.now() when it was heard. */
  openedAt: number;
  /** CDP reported it: Page.handleJavaScriptDialog can answer it. */
  heardOverCdp: boolean;
  /** The tab's debugger was attached when it was first heard, so CDP will report it too. */
  watched: boolean;
}

const Announcement = z.object({
  type: z.literal('tabmcp/dialog'),
  announced: z.object({
    phase: z.enum(['open', 'closed']),
    kind: z.enum(['alert', 'confirm', 'prompt']),
    message: z.string().check(z.maxLength(4_000)),
    defaultPrompt: z.optional(z.string().check(z.maxLength(4_000))),
  }),
});

const CdpOpening = z.object({
  url: z.string(),
  message: z.string(),
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  defaultPrompt: z.optional(z.string()),
});

type Events = {
  opened: (tabId: number, dialog: OpenDialog) => void;
  closed: (tabId: number) => void;
  heardOverCdp: (tabId: number) => void;
};

/** Holds a tab's session attached while its dialog waits for an answer. */
const DIALOG_HOLD = 'dialog open';

/**
 * The native dialogs open now, per tab, heard from two sources: the page's own announcement
 * (bridge/dialog-announce.ts through the content script; needs no debugger) and, when the debugger
 * is attached, CDP's Page.javascriptDialogOpening/Closed (also beforeunload, and dialogs opened
 * before the content script loaded).
 */
export class OpenDialogs {
  readonly #open = new Map<number, OpenDialog>();
  readonly #events = new ListenerSet<Events>();

  constructor(
    private readonly debuggers: DebuggerSessions,
    private readonly log: Logger,
  ) {
    debuggers.onEvent((tabId, method, params) => {
      if (method === 'Page.javascriptDialogClosed') this.#closed(tabId);
      if (method !== 'Page.javascriptDialogOpening') return;
      const parsed = CdpOpening.safeParse(params);
      if (!parsed.success) return;
      const { url, message, type, defaultPrompt } = parsed.data;
      this.#opened(tabId, {
        kind: type,
        message,
        url,
        openedAt: performance.now(),
        heardOverCdp: true,
        watched: true,
        ...optional(defaultPrompt),
      });
    });
    chrome.runtime.onMessage.addListener((raw: unknown, sender) => {
      const tabId = sender.tab?.id;
      // Content scripts of our own extension, top frame only (the bridge runs there).
      if (sender.id !== chrome.runtime.id || tabId === undefined || sender.frameId !== 0) return false;
      const parsed = Announcement.safeParse(raw);
      if (!parsed.success) return false;
      const { phase, kind, message, defaultPrompt } = parsed.data.announced;
      if (phase === 'closed') this.#closed(tabId);
      else
        this.#opened(tabId, {
          kind,
          message,
          url: sender.url ?? sender.tab?.url ?? '',
          openedAt: performance.now(),
          heardOverCdp: false,
          watched: this.debuggers.isAttached(tabId),
          ...optional(defaultPrompt),
        });
      return false;
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.#closed(tabId));
  }

  get(tabId: number): OpenDialog | undefined {
    return this.#open.get(tabId);
  }

  on<K extends keyof Events>(type: K, listener: Events[K]): () => void {
    return this.#events.on(type, listener);
  }

  /**
   * Resolves true once CDP has reported the tab's open dialog, false after `timeoutMs` or when it
   * closes. The page announces a dialog just before it asks the browser for it, so under load an
   * agent can call handle_dialog before the browser (and CDP with it) knows the dialog.
   */
  untilHeardOverCdp(tabId: number, timeoutMs: number): Promise<boolean> {
    return waitUntil<boolean>(
      (done) => {
        const open = this.#open.get(tabId);
        if (!open || open.heardOverCdp) {
          done(open !== undefined);
          return undefined;
        }
        const stopHeard = this.on('heardOverCdp', (heardIn) => heardIn === tabId && done(true));
        const stopClosed = this.on('closed', (closedIn) => closedIn === tabId && done(false));
        return () => {
          stopHeard();
          stopClosed();
        };
      },
      { timeoutMs, onTimeout: () => false },
    );
  }

  /** Forgets the tab's dialog once it was answered (CDP's Closed event may come later). */
  answered(tabId: number): void {
    this.#closed(tabId);
  }

  #opened(tabId: number, dialog: OpenDialog): void {
    const known = this.#open.get(tabId);
    // Both sources report most dialogs: keep the first time it was heard, and what either knows.
    const same = known && known.kind === dialog.kind;
    this.#open.set(
      tabId,
      same
        ? {
            ...dialog,
            openedAt: known.openedAt,
            heardOverCdp: known.heardOverCdp || dialog.heardOverCdp,
            watched: known.watched || dialog.watched,
          }
        : dialog,
    );
    if (this.debuggers.isAttached(tabId)) this.debuggers.hold(tabId, DIALOG_HOLD);
    this.log('dialog.opened', { tabId, kind: dialog.kind, cdp: dialog.heardOverCdp });
    if (!known) this.#events.emit('opened', tabId, dialog);
    if (dialog.heardOverCdp && !known?.heardOverCdp) this.#events.emit('heardOverCdp', tabId);
  }

  #closed(tabId: number): void {
    if (!this.#open.delete(tabId)) return;
    this.debuggers.release(tabId, DIALOG_HOLD);
    this.log('dialog.closed', { tabId });
    this.#events.emit('closed', tabId);
  }
}

function optional(defaultPrompt: string | undefined): { defaultPrompt?: string } {
  return defaultPrompt === undefined ? {} : { defaultPrompt };
}
