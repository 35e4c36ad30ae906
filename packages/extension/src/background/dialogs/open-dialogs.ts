// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { ListenerSet, type Logger, waitUntil } from '@tabmcp/protocol';
import * as z from 'zod/mini';
import type { DebuggerSessions } from '../debugger/debugger-sessions';

export interface OpenDialog {
  /** tabmcp's name for this dialog, given to the agent with it: handle_dialog may name it. */
  id: string;
  kind: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  /** A prompt's default answer. */
  defaultPrompt?: string;
  /** The page that opened it, for the page-text marker. */
  url: string;
  /**
   * The browser reported it over CDP (Page.javascriptDialogOpening): it is shown, and
   * Page.handleJavaScriptDialog can answer it. False for a dialog only the page announced, which
   * may never have been shown (the announcement is the page's to dispatch).
   */
  confirmed: boolean;
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
  /** The browser showed a dialog (CDP). */
  confirmed: (tabId: number, dialog: OpenDialog) => void;
  /** The page announced one (its own claim: only where no debugger watches is it all there is). */
  announced: (tabId: number, dialog: OpenDialog) => void;
};

/** Holds a tab's session attached while its dialog waits for an answer. */
const DIALOG_HOLD = 'dialog open';

/**
 * The native dialogs of each tab, from two sources kept apart (docs/security.md, "Dialogs and
 * document identity"): what the browser reported over CDP while the tab's debugger was attached
 * (Page.javascriptDialogOpening/Closed), which is the truth, and what the page announced through
 * the MAIN-world bridge (bridge/dialog-announce.ts, relayed by the content script), which any page
 * script can forge. Only a confirmed dialog holds the debugger or blocks calls; an announcement is
 * used only where nothing else is heard (--input synthetic, or a debugger that could not attach).
 */
export class OpenDialogs {
  readonly #confirmed = new Map<number, OpenDialog>();
  readonly #announced = new Map<number, OpenDialog>();
  /** Per tab, the last dialog an answer showed the agent: handle_dialog answers only that one. */
  readonly #shown = new Map<number, OpenDialog>();
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
      const dialog = { id: newDialogId(), kind: type, message, url, confirmed: true, ...optional(defaultPrompt) };
      this.#confirmed.set(tabId, dialog);
      this.#announced.delete(tabId);
      this.debuggers.hold(tabId, DIALOG_HOLD);
      this.log('dialog.opened', { tabId, kind: type, source: 'browser' });
      this.#events.emit('confirmed', tabId, dialog);
    });
    chrome.runtime.onMessage.addListener((raw: unknown, sender) => {
      const tabId = sender.tab?.id;
      // Content scripts of our own extension, top frame only (the bridge runs there).
      if (sender.id !== chrome.runtime.id || tabId === undefined || sender.frameId !== 0) return false;
      const parsed = Announcement.safeParse(raw);
      if (!parsed.success) return false;
      const { phase, kind, message, defaultPrompt } = parsed.data.announced;
      // A page's "closed" only withdraws its own claim: a dialog the browser showed closes when the browser says.
      if (phase === 'closed') this.#announced.delete(tabId);
      else {
        const url = sender.url ?? sender.tab?.url ?? '';
        const dialog = { id: newDialogId(), kind, message, url, confirmed: false, ...optional(defaultPrompt) };
        this.#announced.set(tabId, dialog);
        this.log('dialog.announced', { tabId, kind });
        this.#events.emit('announced', tabId, dialog);
      }
      return false;
    });
    chrome.tabs.onRemoved.addListener((tabId) => {
      this.#closed(tabId);
      this.#shown.delete(tabId);
    });
    // A session that went (the user cancelled the bar, the tab crashed) no longer reports the dialog closing.
    debuggers.onDetach((tabId) => this.#closed(tabId));
  }

  /** The dialog the browser showed in the tab and has not reported closed. */
  confirmed(tabId: number): OpenDialog | undefined {
    return this.#confirmed.get(tabId);
  }

  /** What the page last announced and did not withdraw; never proof that anything is shown. */
  announced(tabId: number): OpenDialog | undefined {
    return this.#announced.get(tabId);
  }

  /** The agent was shown `dialog` in an answer: handle_dialog may answer that dialog, and no other. */
  noteShown(tabId: number, dialog: OpenDialog): void {
    this.#shown.set(tabId, dialog);
  }

  shown(tabId: number): OpenDialog | undefined {
    return this.#shown.get(tabId);
  }

  on<K extends keyof Events>(type: K, listener: Events[K]): () => void {
    return this.#events.on(type, listener);
  }

  /**
   * The dialog the browser shows in the tab once it reports one, within `timeoutMs`. The bridge
   * announces a dialog just before it asks the browser for it, so under load an agent can call
   * handle_dialog before the browser (and CDP with it) has shown it (decision 257).
   */
  untilConfirmed(tabId: number, timeoutMs: number): Promise<OpenDialog | undefined> {
    return waitUntil<OpenDialog | undefined>(
      (done) => {
        const open = this.#confirmed.get(tabId);
        if (open) {
          done(open);
          return undefined;
        }
        return this.on('confirmed', (openedIn, dialog) => openedIn === tabId && done(dialog));
      },
      { timeoutMs, onTimeout: () => undefined },
    );
  }

  /**
   * The tab's dialog was answered (CDP's Closed event may come later), or its page proved it is not
   * shown. Given an id, only that dialog: the page's next one may already have been reported.
   */
  answered(tabId: number, id?: string): void {
    if (id !== undefined && this.#confirmed.get(tabId)?.id !== id) return;
    this.#closed(tabId);
    this.#shown.delete(tabId);
  }

  /** The page ran a script, so what it announced is not shown (a real dialog blocks its page). */
  notShown(tabId: number): void {
    this.#announced.delete(tabId);
  }

  #closed(tabId: number): void {
    this.#announced.delete(tabId);
    if (!this.#confirmed.delete(tabId)) return;
    this.debuggers.release(tabId, DIALOG_HOLD);
    this.log('dialog.closed', { tabId });
  }
}

/** Two answers name the same dialog when its kind and text are the same (the browser gives dialogs no id). */
export function sameDialog(a: OpenDialog, b: OpenDialog): boolean {
  return a.kind === b.kind && a.message === b.message;
}

/** Random, so a page cannot name a dialog for the agent; short, since the agent copies it. */
function newDialogId(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return `d${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function optional(defaultPrompt: string | undefined): { defaultPrompt?: string } {
  return defaultPrompt === undefined ? {} : { defaultPrompt };
}
