/**
 * Chrome's "“tabmcp” started debugging this browser" bar (docs/dom-tools.md, "Trusted input"). It is shown while
 * an extension has a debugger session, and it comes 100 to 300 ms after the session attaches, taking 56 px off the
 * bottom of every tab's window. A call attaches at its start after each idle spell (15 s, debugger-sessions.ts),
 * so without a wait here the page is measured in the taller window and acted on in the shorter one: a hover near
 * the window's bottom edge is left past it (the page hears the pointer leave), a drag drops past it, a wheel turns
 * nowhere. The attach waits for the bar instead, so the call measures the window it acts in.
 */

/** How long the bar is waited for after an attach that brings it; it came within 300 ms on a loaded 2-core machine. */
const BAR_WAIT_MS = 1_000;
/**
 * Chrome keeps the bar for 5 s after the last session detaches (4.8 to 4.9 s measured): a session that attaches
 * sooner finds it shown. Used only until the window's height with the bar is known (`heightBefore`).
 */
const BAR_LINGER_MS = 4_500;

/** Whether the bar came, and so whether a later attach should wait for it. */
export class DebuggingBar {
  /** The bar was seen to come once: this browser shows it. */
  #seen = false;
  /** A wait ran out and the bar was never seen: this browser shows none (--silent-debugger-extension-api). */
  #absent = false;
  #lastSessionEnded = Number.NEGATIVE_INFINITY;
  /** Per window, its tabs' height with the bar shown, as last seen when it came: the browser's own word on whether it is up. */
  #heightWithBar = new Map<number, number>();

  /** The last session of this extension ended (detached, or its tab closed): the bar goes a while later. */
  lastSessionEnded(): void {
    this.#lastSessionEnded = Date.now();
  }

  /**
   * The tab's window height now when an attach to it is to bring the bar (a tab shown in its window, no other
   * session of ours holding the bar up, the bar not shown still), else undefined: nothing to wait for.
   */
  async heightBefore(tabId: number, othersAttached: boolean): Promise<number | undefined> {
    if (this.#absent || othersAttached) return undefined;
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    // A tab its window does not show gets no input, and may be resized only once shown.
    if (!tab?.active || tab.height === undefined) return undefined;
    // Where the window's height with the bar is known, the height says whether the bar is still up: the time since
    // the last session ended is only heard late when the worker is busy (the tab's removal reached it a second on).
    const withBar = this.#heightWithBar.get(tab.windowId);
    if (withBar !== undefined) return tab.height === withBar ? undefined : tab.height;
    return Date.now() - this.#lastSessionEnded < BAR_LINGER_MS ? undefined : tab.height;
  }

  /**
   * After the attach: resolves once the tab's window changed height from `before` (the browser's own `resized`,
   * Page.frameResized, or the tab's height read again, for a bar that came before Page events were heard), or
   * after BAR_WAIT_MS. True when it came.
   */
  async arrival(tabId: number, before: number, resized: Promise<void>): Promise<boolean> {
    const now = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!now) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const came =
      now.height !== before ||
      (await Promise.race([
        resized.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), BAR_WAIT_MS);
        }),
      ]));
    clearTimeout(timer);
    if (came) {
      this.#seen = true;
      const after = await chrome.tabs.get(tabId).catch(() => undefined);
      if (after?.height !== undefined && after.height < before) this.#heightWithBar.set(after.windowId, after.height);
    } else if (!this.#seen) this.#absent = true;
    return came;
  }
}
