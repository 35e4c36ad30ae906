import type { RemoteParsedParams, RemoteResult } from '@tabmcp/protocol';
import { ErrorCode, errorMessage, ProtocolError, withTimeout } from '@tabmcp/protocol';
import { getTab } from './navigation';

/** captureVisibleTab allows about 2 calls a second; calls are queued and spaced by this much. */
const CAPTURE_SPACING_MS = 550;
/** The bound on waiting for a tab made active to paint (a page busy with a long task paints late). */
const PAINT_BOUND_MS = 1_000;

/** Screenshots of the visible area of a tab, one at a time (the API is rate-limited and needs the tab active). */
export class ScreenshotTaker {
  #queue: Promise<unknown> = Promise.resolve();
  #last = 0;

  capture(params: RemoteParsedParams<'screenshot'>): Promise<RemoteResult<'screenshot'>> {
    const run = this.#queue.then(() => this.#capture(params));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #capture({ tabId, format, quality }: RemoteParsedParams<'screenshot'>): Promise<RemoteResult<'screenshot'>> {
    let tab: chrome.tabs.Tab;
    if (tabId === undefined) {
      const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      if (active?.id === undefined) throw new ProtocolError(ErrorCode.TabNotFound, 'No active tab to capture');
      tab = active;
    } else {
      tab = await getTab(tabId);
      if (!tab.active) {
        tab = (await chrome.tabs.update(tabId, { active: true })) ?? tab;
        await nextFrame(tabId);
      }
    }
    const wait = this.#last + CAPTURE_SPACING_MS - Date.now();
    if (wait > 0) await sleep(wait);
    let dataUrl: string;
    try {
      dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, {
        format,
        ...(quality !== undefined ? { quality } : {}),
      });
    } catch (error) {
      throw new ProtocolError(ErrorCode.ServerError, `Cannot capture tab ${tab.id}: ${errorMessage(error)}`);
    } finally {
      this.#last = Date.now();
    }
    const comma = dataUrl.indexOf(',');
    return { tabId: tab.id ?? -1, mimeType: `image/${format}`, data: dataUrl.slice(comma + 1) };
  }
}

/**
 * Resolves once a tab made active has painted a frame: two animation frames in the tab, since the first
 * runs before the paint of the frame it belongs to. A page that cannot be scripted (the browser's own
 * pages) or that paints nothing within the bound is captured as it is.
 */
async function nextFrame(tabId: number): Promise<void> {
  const painted = chrome.scripting
    .executeScript({
      target: { tabId },
      func: () => new Promise<boolean>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))),
    })
    .catch(() => undefined);
  await withTimeout(painted, { timeoutMs: PAINT_BOUND_MS, onTimeout: () => undefined });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
