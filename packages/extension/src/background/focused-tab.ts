/**
 * Which tab the user looks at: the active tab of the focused window (issue 27 H6). Activation in a window
 * behind another (a script, or a tab closing there) moves that window's active tab, not the user's focus.
 * Until the browser has named a focused window, every activation counts, as before.
 */
export class FocusedTab {
  readonly #activeByWindow = new Map<number, number>();
  #focusedWindow: number | undefined;

  /** A tab became active in its window; returns the tab the user now looks at, if that changed it. */
  activated(tabId: number, windowId: number): number | undefined {
    this.#activeByWindow.set(windowId, tabId);
    if (this.#focusedWindow !== undefined && this.#focusedWindow !== windowId) return undefined;
    return tabId;
  }

  /**
   * Another window got the focus (`none` when the browser lost it to another application: the marker stays
   * where it was). Returns the focused window's active tab when known.
   */
  focused(windowId: number | 'none'): number | undefined {
    if (windowId === 'none') return undefined;
    this.#focusedWindow = windowId;
    return this.#activeByWindow.get(windowId);
  }

  windowClosed(windowId: number): void {
    this.#activeByWindow.delete(windowId);
    if (this.#focusedWindow === windowId) this.#focusedWindow = undefined;
  }
}
