// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import { PageBrowserCapabilities, Tool, ToolSource } from '@tabmcp/protocol';
import * as z from 'zod/mini';

/** One tab's tools as persisted (docs/requirements.md#hub's DomainToolStorage, per domain and tab). */
export const StoredTab = z.object({
  tabId: z.int(),
  url: z.string().check(z.maxLength(8192)),
  domain: z.string().check(z.maxLength(300)),
  ordinal: z.int().check(z.positive()),
  source: z.optional(ToolSource),
  tools: z.array(Tool).check(z.maxLength(5_000)),
  updatedAt: z.number(),
  /** Missing in state saved before it existed: then `updatedAt` stands in. */
  lastSeen: z.optional(z.number()),
  capabilities: z.optional(PageBrowserCapabilities),
});
export type StoredTab = z.infer<typeof StoredTab>;

/** A tool with `annotations.cache === true`: it outlives its tab and reopens `url` when called. */
export const StoredCachedTool = z.object({
  domain: z.string().check(z.maxLength(300)),
  url: z.string().check(z.maxLength(8192)),
  tool: Tool,
  savedAt: z.number(),
});
export type StoredCachedTool = z.infer<typeof StoredCachedTool>;

export const HubSnapshot = z.object({
  version: z.literal(1),
  tabs: z.array(StoredTab).check(z.maxLength(10_000)),
  cached: z.array(StoredCachedTool).check(z.maxLength(10_000)),
  sites: z
    .array(z.object({ site: z.string().check(z.maxLength(253)), decision: z.enum(['allow', 'block']) }))
    .check(z.maxLength(10_000)),
});
export type HubSnapshot = z.infer<typeof HubSnapshot>;

/** Where the hub keeps its state: `chrome.storage.local` in the extension, memory in tests. */
export interface HubStore {
  load(): Promise<unknown>;
  save(snapshot: HubSnapshot): void;
  /**
   * The user's site decisions under a key of their own: nothing a page can make the hub store
   * (tools, tabs) can invalidate them. A store without these keeps them in the snapshot only.
   */
  loadSites?(): Promise<unknown>;
  saveSites?(sites: Array<{ site: string; decision: 'allow' | 'block' }>): void;
  /**
   * Per domain, the next tab number never given (tab-numbers.ts), kept for the browser session so a restarted
   * worker never gives a number again. A store without these counts from the stored tabs only.
   */
  loadTabNumbers?(): Promise<unknown>;
  saveTabNumbers?(next: Record<string, number>): void;
}

export class MemoryHubStore implements HubStore {
  saved: HubSnapshot | undefined;
  savedSites: unknown;
  saves = 0;
  async loadSites(): Promise<unknown> {
    return structuredClone(this.savedSites);
  }
  saveSites(sites: Array<{ site: string; decision: 'allow' | 'block' }>): void {
    this.savedSites = structuredClone(sites);
  }
  savedTabNumbers: unknown;
  async loadTabNumbers(): Promise<unknown> {
    return structuredClone(this.savedTabNumbers);
  }
  saveTabNumbers(next: Record<string, number>): void {
    this.savedTabNumbers = structuredClone(next);
  }
  async load(): Promise<unknown> {
    return this.saved === undefined ? undefined : structuredClone(this.saved);
  }
  save(snapshot: HubSnapshot): void {
    this.saves += 1;
    this.saved = structuredClone(snapshot);
  }
}
