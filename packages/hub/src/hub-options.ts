import { DEFAULT_REQUEST_TIMEOUT_MS, type Logger } from '@tabmcp/protocol';
import type { CallGate, TabOpener } from './call-router';
import type { HubStore } from './store';
import type { TabTransport } from './tab-transport';

export interface HubOptions {
  transport: TabTransport;
  store?: HubStore;
  opener?: TabOpener;
  /** Wraps each call by hub name once its tab is known (the extension's dialog gate). */
  gate?: CallGate;
  /** Per request to a tab (docs/requirements.md#hub: 10 s). */
  requestTimeoutMs?: number;
  /** How long a reopened tab may take to register its tools (10 s). */
  openWaitMs?: number;
  /** A tab that is still loading (no content script yet) is retried this often (3) ... */
  retries?: number;
  /** ... this far apart (1 s), or sooner when it registers. */
  retryDelayMs?: number;
  /** Stored tabs last seen alive longer ago than this are dropped when the worker starts (1 h). */
  staleTabMs?: number;
  /** How long tab messages wait for a slow restore before they are handled without it (5 s). */
  restoreWaitMs?: number;
  /** A restored tab whose content script has not registered again after this long is dropped (15 s). */
  restoreGraceMs?: number;
  now?: () => number;
  log?: Logger;
}

/** The timings and clock a hub runs with, every default filled in. */
export type HubSettings = Required<Omit<HubOptions, 'transport' | 'store' | 'opener' | 'gate'>>;

const HOUR_MS = 3_600_000;

export function hubSettings(options: HubOptions): HubSettings {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    openWaitMs: options.openWaitMs ?? 10_000,
    retries: options.retries ?? 3,
    retryDelayMs: options.retryDelayMs ?? 1_000,
    staleTabMs: options.staleTabMs ?? HOUR_MS,
    restoreWaitMs: options.restoreWaitMs ?? 5_000,
    restoreGraceMs: options.restoreGraceMs ?? 15_000,
    now: options.now ?? Date.now,
    log: options.log ?? (() => {}),
  };
}
