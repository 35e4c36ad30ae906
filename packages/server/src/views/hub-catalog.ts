import type { HubToolsResult, Tool } from '@tabmcp/protocol';
import type { BrowserEvent } from '../core/browser-connection';
import { HUB_TOOL_PREFIX } from '../core/page-tool-names';

type HubToolsChange = Extract<BrowserEvent, { type: 'hubToolsChanged' }>;

/**
 * The hub's `all` view list as this server knows it: a whole list (`listHubTools`) and the changes
 * after it (`hubToolsChanged`), each numbered by the extension. A list's answer reaches the view a
 * tick after it was read off the link, so a change sent after it may be heard first: changes heard
 * while a list is on its way are kept and laid again on top of it when newer than it. Pure logic.
 */
export class HubCatalog {
  #tools = new Map<string, Tool>();
  #fetches = 0;
  #heardWhileFetching: HubToolsChange[] = [];

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  tools(): Tool[] {
    return [...this.#tools.values()];
  }

  /** A list was asked for; each call is followed by one `listArrived` or `listFailed`. */
  listAsked(): void {
    this.#fetches += 1;
  }

  listArrived(list: Pick<HubToolsResult, 'tools' | 'revision'>): void {
    this.#tools = new Map();
    this.#put(list.tools);
    for (const change of this.#heardWhileFetching) if (change.revision > list.revision) this.#apply(change);
    this.#fetchDone();
  }

  listFailed(): void {
    this.#fetchDone();
  }

  /** The link dropped: the next extension numbers its changes afresh, so older ones must not come back. */
  linkDown(): void {
    this.#heardWhileFetching = [];
  }

  changed(change: HubToolsChange): void {
    if (this.#fetches > 0) this.#heardWhileFetching.push(change);
    this.#apply(change);
  }

  #apply(change: HubToolsChange): void {
    for (const name of change.removed) this.#tools.delete(name);
    this.#put(change.changed);
  }

  // Only the hub's own names: anything else in its list could pass for a core tool.
  #put(tools: readonly Tool[]): void {
    for (const tool of tools) if (tool.name.startsWith(HUB_TOOL_PREFIX)) this.#tools.set(tool.name, tool);
  }

  #fetchDone(): void {
    this.#fetches = Math.max(0, this.#fetches - 1);
    if (this.#fetches === 0) this.#heardWhileFetching = [];
  }
}
