import type { CallToolResult, Tool } from '@tabmcp/protocol';
import { z } from 'zod';
import { documentOfTools } from './seen-documents';

/**
 * The part of a tab's answer that shows a dialog (docs/dom-tools.md, "Dialogs"): the answer of the
 * call that opened it, a refusal while it is open, handle_dialog naming the next one. Checked, not
 * trusted: the extension writes it, but its text comes from the page.
 */
const ShowsDialog = z.object({
  dialog: z.object({ id: z.string().max(64), kind: z.string().max(32), text: z.string() }),
});

/** A dialog answer is a short JSON object; a long answer (a page's content) is not parsed to find out. */
const MAX_DIALOG_ANSWER_CHARS = 8_000;

/**
 * Per tab, whether an answer showed the agent a native dialog it has not answered yet: while the
 * focused tab has one, handle_dialog is listed (docs/decisions.md, 353). Each entry keeps the
 * document the dialog showed in, so tools from another document (the tab navigated) end it.
 */
export class WaitingDialogs {
  readonly #byTab = new Map<number, { document: string | undefined }>();

  has(tabId: number | null): boolean {
    return tabId !== null && this.#byTab.has(tabId);
  }

  /**
   * A tab's answer. One showing a dialog starts a wait; handle_dialog's answer showing none (done,
   * or refused with nothing open) ends it. Other answers leave it: only handle_dialog or the tab's
   * page going away answers a dialog. Returns whether the tab's wait changed.
   */
  answered(tabId: number, result: CallToolResult, from: { handleDialog: boolean; document: string | undefined }) {
    if (showsDialog(result)) {
      const changed = !this.#byTab.has(tabId);
      this.#byTab.set(tabId, { document: from.document });
      return changed;
    }
    return from.handleDialog && this.#byTab.delete(tabId);
  }

  /** The tab's tools changed: none (its page unloaded) or another document's end its dialog's wait. */
  toolsChanged(tabId: number, tools: readonly Tool[]): boolean {
    const waiting = this.#byTab.get(tabId);
    if (!waiting) return false;
    const document = documentOfTools(tools);
    const gone =
      tools.length === 0 || (waiting.document !== undefined && document !== undefined && document !== waiting.document);
    return gone && this.#byTab.delete(tabId);
  }

  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }

  clear(): void {
    this.#byTab.clear();
  }
}

function showsDialog(result: CallToolResult): boolean {
  const block = result.content[0];
  const text = block?.type === 'text' ? block.text : undefined;
  if (typeof text !== 'string' || text.length > MAX_DIALOG_ANSWER_CHARS || !text.includes('"dialog"')) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return ShowsDialog.safeParse(parsed).success;
}
