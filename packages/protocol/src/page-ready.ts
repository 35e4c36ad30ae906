// zod/mini, not classic: the content script bundles this file (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';

/**
 * The request by which the background, once a loaded page's requests went quiet, asks its tab to
 * wait until its DOM is quiet too, derive its tools again (unless its last derivation stands) and publish them (docs/dom-tools.md,
 * "When open_tab answers"). A `browser/pageRequest` method the content script answers itself,
 * never the page.
 */
export const SETTLE_LOAD = 'tabmcp/settleLoad';

export const SettleLoadParams = z.object({
  /** How long the DOM must go without a change to be quiet. */
  quietMs: z.number().check(z.nonnegative()),
  /**
   * How long ago the tab's last request began or ended, as the background heard it: the quiet
   * window starts no earlier. A script that just arrived is still to run, and may ask for the next.
   */
  networkAgoMs: z.number().check(z.nonnegative()),
  /**
   * How long ago the tab last began or ended any request that holds it, images and stylesheets
   * included: the layout may have changed then with no change to the DOM, so a derivation older than
   * that is made again.
   */
  requestsAgoMs: z.number().check(z.nonnegative()),
  /** The bound on the wait: answered by then, quiet or not. */
  maxWaitMs: z.number().check(z.nonnegative()),
});
export type SettleLoadParams = z.infer<typeof SettleLoadParams>;

/** Whether the DOM went quiet within the bound, and the tool list was published after that (it was, either way). */
export const SettleLoadResult = z.object({ quiet: z.boolean() });
export type SettleLoadResult = z.infer<typeof SettleLoadResult>;
