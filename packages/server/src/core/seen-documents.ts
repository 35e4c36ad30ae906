import { type CallToolResult, DOCUMENT_KEY, documentOf, type Tool, withoutDocument } from '@tabmcp/protocol';

/**
 * Per tab, the document whose tools the agent last saw (docs/dom-tools.md, "Which page a call is
 * for"): the one whose list it read, or the one that answered its last call there. Every call to
 * the tab carries it, so the tab's content script refuses a call that races a navigation instead
 * of running the next page's tool of the same name.
 */
export class SeenDocuments {
  readonly #byTab = new Map<number, string>();

  /** The agent read the tab's tools (tools/list, list_page_tools). */
  listed(tabId: number, tools: readonly Tool[]): void {
    const id = documentOfTools(tools);
    if (id === undefined) this.#byTab.delete(tabId);
    else this.#byTab.set(tabId, id);
  }

  /** The call's arguments with the document it was made for, when the agent saw one. */
  carry(tabId: number, args: Record<string, unknown>): Record<string, unknown> {
    const id = this.#byTab.get(tabId);
    return id === undefined ? args : { ...args, [DOCUMENT_KEY]: id };
  }

  /**
   * The tab's answer, as the agent gets it (without the id). An answer names the document that
   * gave it: a page's answer its own, a navigation report the new page's whose tools it names. One
   * that names none (a navigation report without the new page's tools, a dialog the extension
   * answered with) leaves the last document seen: the next call still names it, so a page loaded
   * since refuses it instead of running its own tool of the same name (issue 38). Never forgotten
   * here: a call that carried no id would run on whatever page the tab shows.
   */
  answered(tabId: number, result: CallToolResult): CallToolResult {
    const id = documentOf(result);
    if (id !== undefined) this.#byTab.set(tabId, id);
    return withoutDocument(result);
  }

  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }
}

/** The document a tab's tools came from, when its content script wrote one. */
export function documentOfTools(tools: readonly Tool[]): string | undefined {
  return tools.map(documentOf).find((found) => found !== undefined);
}
