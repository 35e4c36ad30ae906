import { TabClient } from '@tabmcp/page';
import { PageBrowserCapabilities, ToolSource } from '@tabmcp/protocol';
import { SOURCE_META_KEY } from '../bridge/channel';
import { afterPageTurn } from './page-turn';

export interface Candidate {
  channel: string;
  source: ToolSource;
}

/** How long a page gets to start its MCP server after the content script runs. */
const DISCOVERY_TIMEOUT_MS = 5_000;
/**
 * After the first answer, a higher-priority channel that has not answered yet gets the page's turn
 * (content/page-turn.ts) to answer too; this bounds that turn if the page swallows the probe.
 */
const PRIORITY_TURN_BOUND_MS = 30;

/**
 * Asks every candidate channel at once and keeps the first in list order that answered, so a
 * page's own MCP-B server wins over the bridge's view of the same page's `window.mcp`.
 */
export async function findPageServer(
  candidates: Candidate[],
): Promise<{ client: TabClient; source: ToolSource; capabilities: PageBrowserCapabilities | undefined } | undefined> {
  const clients = candidates.map(
    (candidate) => new TabClient({ channel: candidate.channel, connectTimeoutMs: DISCOVERY_TIMEOUT_MS }),
  );
  const ready = clients.map(() => false);
  const failed = clients.map(() => false);
  const chosen = await new Promise<number>((resolve) => {
    const settleIfDecided = () => {
      const choice = decidedChoice(ready, failed);
      if (choice !== undefined) resolve(choice);
    };
    clients.forEach((client, index) => {
      client.connect().then(
        () => {
          ready[index] = true;
          settleIfDecided();
          afterPageTurn(() => resolve(ready.indexOf(true)), PRIORITY_TURN_BOUND_MS);
        },
        () => {
          failed[index] = true;
          settleIfDecided();
        },
      );
    });
  });
  clients.forEach((client, index) => {
    if (index !== chosen) client.close();
  });
  const client = clients[chosen];
  const candidate = candidates[chosen];
  if (!client || !candidate) return undefined;
  const result = (await client.initialize()) as
    | { _meta?: Record<string, unknown>; capabilities?: { browser?: unknown } }
    | undefined;
  // The bridge names what it found (window.mcp, WebMCP, declarative forms); a page cannot lie its
  // way into anything but a label, and an unknown label is ignored.
  const named = ToolSource.safeParse(result?._meta?.[SOURCE_META_KEY]);
  // docs/requirements.md#hub: a page server may declare `browser` capabilities; the hub aggregates them.
  const declared = PageBrowserCapabilities.safeParse(result?.capabilities?.browser);
  return {
    client,
    source: named.success ? named.data : candidate.source,
    capabilities: declared.success ? declared.data : undefined,
  };
}

/**
 * The channel to use once nothing can change the choice: the first that answered when every channel
 * before it in the list has failed (so a page's own server answering first costs no grace period),
 * -1 when all failed, undefined while a channel ahead of the first answer may still answer.
 */
export function decidedChoice(ready: readonly boolean[], failed: readonly boolean[]): number | undefined {
  const first = ready.indexOf(true);
  if (first !== -1) return failed.slice(0, first).every(Boolean) ? first : undefined;
  return failed.every(Boolean) ? -1 : undefined;
}
