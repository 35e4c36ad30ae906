import type { Hub } from '@tabmcp/hub';
import type { ExtensionToServer, HubToolsResult, ServerRequest, Tool } from '@tabmcp/protocol';

/** The requests about the hub's `all` view list, answered here (per link) rather than in link-commands.ts. */
export type CatalogRequest = Extract<ServerRequest, { type: 'listHubTools' | 'unwatchHubTools' }>;

export function isCatalogRequest(request: ServerRequest): request is CatalogRequest {
  return request.type === 'listHubTools' || request.type === 'unwatchHubTools';
}

/** Each tool as its JSON text, by hub name: what a link was last told. */
type Told = ReadonlyMap<string, string>;

/**
 * What changed between the list a link was told and the hub's list now: tools added or changed
 * (whole), hub names gone, and the new list to remember. Pure, so it is tested alone.
 */
export function diffCatalog(told: Told, tools: readonly Tool[]): { changed: Tool[]; removed: string[]; now: Told } {
  const now = new Map<string, string>();
  const changed: Tool[] = [];
  for (const tool of tools) {
    const text = JSON.stringify(tool);
    now.set(tool.name, text);
    if (told.get(tool.name) !== text) changed.push(tool);
  }
  const removed = [...told.keys()].filter((name) => !now.has(name));
  return { changed, removed, now };
}

const NOTHING_TOLD: Told = new Map();

/** The part of the hub the feed reads. */
type CatalogSource = Pick<Hub, 'onHubToolsChanged' | 'hubTools' | 'capabilities'>;

/**
 * The hub's `all` view list for the server link (issue 24, item 4). Only the `all` view reads it,
 * so nothing is sent until a server asks with `listHubTools {watch: true}`; from then on each change
 * goes out as what changed (`hubToolsChanged`), numbered, until `unwatchHubTools` or the link
 * closes. Before the whole catalog (~28 KB) went to every server on every change of any tab.
 */
export class HubCatalogFeed {
  readonly #hub: CatalogSource;
  readonly #send: (message: ExtensionToServer) => void;
  #watching = false;
  #told: Told = NOTHING_TOLD;
  #toldCapabilities = '';
  #revision = 0;
  #queued = false;

  constructor(hub: CatalogSource, send: (message: ExtensionToServer) => void) {
    this.#hub = hub;
    this.#send = send;
    hub.onHubToolsChanged(() => this.#schedule());
  }

  /** The link closed: whoever dials next has asked for nothing yet. */
  reset(): void {
    this.#watching = false;
    this.#told = NOTHING_TOLD;
    this.#revision = 0;
  }

  answer(request: CatalogRequest): ExtensionToServer {
    if (request.type === 'unwatchHubTools') {
      this.#watching = false;
      this.#told = NOTHING_TOLD;
      return { type: 'response', requestId: request.requestId, result: {} };
    }
    return { type: 'response', requestId: request.requestId, result: this.#list(request.watch === true) };
  }

  #list(watch: boolean): HubToolsResult {
    // Changes not sent yet go out first, so those already watching hear them, and this list
    // (which includes them) carries the revision after them.
    this.#flush();
    const tools = this.#hub.hubTools();
    const capabilities = this.#hub.capabilities();
    if (watch && !this.#watching) {
      this.#watching = true;
      this.#told = diffCatalog(NOTHING_TOLD, tools).now;
      this.#toldCapabilities = JSON.stringify(capabilities);
    }
    return { tools, capabilities, revision: this.#revision };
  }

  // Many tabs registering in one task make one message.
  #schedule(): void {
    if (!this.#watching || this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.#flush();
    });
  }

  #flush(): void {
    if (!this.#watching) return;
    const { changed, removed, now } = diffCatalog(this.#told, this.#hub.hubTools());
    const capabilities = this.#hub.capabilities();
    const capabilitiesText = JSON.stringify(capabilities);
    if (changed.length === 0 && removed.length === 0 && capabilitiesText === this.#toldCapabilities) return;
    this.#told = now;
    this.#toldCapabilities = capabilitiesText;
    this.#revision += 1;
    this.#send({ type: 'hubToolsChanged', revision: this.#revision, changed, removed, capabilities });
  }
}
