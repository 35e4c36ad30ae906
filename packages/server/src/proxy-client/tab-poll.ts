import { errorMessage, type Logger, RemoteMethods, validate } from '@tabmcp/protocol';
import type { BrowserEvent } from '../core/browser-connection';
import type { KnownTabs } from './known-tabs';
import { withTools } from './omitted-tools';
import type { ProxyRpc } from './proxy-rpc';

/** A failed poll is retried after this pause, so a broken browser is not hammered. */
const POLL_RETRY_MS = 1_000;
/**
 * Polls answered back to back (a page that changes its tools all the time) are spaced by at least
 * this much, which keeps the poll far below the proxy's rate limit (200 requests/s per client).
 */
const MIN_POLL_GAP_MS = 50;

export interface TabPollOptions {
  /** The socket of the browser this poll serves. */
  rpc: ProxyRpc;
  known: KnownTabs;
  /** False once that browser is gone (the connection moved to another epoch): the poll ends. */
  isCurrent: () => boolean;
  /** True once the connection closed: the poll ends. */
  isStopped: () => boolean;
  /** How long one getTabs may wait in the extension. */
  pollWaitMs: number;
  requestTimeoutMs: number;
  log: Logger;
  /** Tells the session, as the local link's events would. */
  emit: (event: BrowserEvent) => void;
  /** A pause that the connection's close() cuts short. */
  sleep: (ms: number) => Promise<void>;
}

/**
 * The getTabs long poll of a passive extension: each answer is turned into the link events the session
 * knows. Runs until the browser is gone or the connection closed.
 */
export async function pollTabs(options: TabPollOptions): Promise<void> {
  const { rpc, known, isCurrent, isStopped, log, emit, sleep } = options;
  const wait = options.pollWaitMs;
  let version: number | undefined;
  while (isCurrent() && !isStopped()) {
    const started = Date.now();
    try {
      const params = version === undefined ? { waitMs: 0 } : { sinceVersion: version, waitMs: wait };
      const heard = await rpc.requestHeard('getTabs', params, wait + 15_000);
      const answer = validate(RemoteMethods.getTabs.result, heard.value, 'getTabs answer');
      if (!isCurrent()) return;
      if (!answer.ok) throw answer.error;
      const fetchTools = async (tabId: number) => {
        const fetched = await rpc.requestHeard('listPageTools', { tabId }, options.requestTimeoutMs);
        const listed = validate(RemoteMethods.listPageTools.result, fetched.value, 'listPageTools answer');
        if (!listed.ok) throw listed.error;
        return { tools: listed.value.tools, heardAt: fetched.heardAt };
      };
      const { tabs, heardAt } = await withTools(answer.value.tabs, heard.heardAt, fetchTools, log);
      if (!isCurrent()) return;
      // A call wrote a word heard after this answer: the answer may be older, and applying it would
      // undo the call's (a tab just opened taken away). Ask again at once with the version kept: the
      // browser's tabs moved past it, so it answers at once with tabs at least as new as the call's.
      if (await known.supersededByCall(heard.heardAt)) continue;
      version = answer.value.version;
      for (const event of known.polled(tabs, heardAt)) emit(event);
      const gap = started + MIN_POLL_GAP_MS - Date.now();
      if (gap > 0) await sleep(gap);
    } catch (error) {
      if (!isCurrent()) return;
      log('proxy.poll-failed', { error: errorMessage(error) });
      await sleep(POLL_RETRY_MS);
    }
  }
}
