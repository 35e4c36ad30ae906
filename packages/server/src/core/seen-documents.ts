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
    const id = tools.map(documentOf).find((found) => found !== undefined);
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
   * gave it; one that names none loaded another page, which the agent was told of in the answer
   * itself: its next call carries no id until it reads the list again.
   */
  answered(tabId: number, result: CallToolResult): CallToolResult {
    const id = documentOf(result);
    if (id !== undefined) this.#byTab.set(tabId, id);
    else if (!result.isError) this.#byTab.delete(tabId);
    return withoutDocument(result);
  }

  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }
}
