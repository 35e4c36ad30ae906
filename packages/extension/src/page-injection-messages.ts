/**
 * The one-off messages between a tab's content script and the background about what runs in the
 * page (background/page-injection.ts; docs/security.md, "What runs in a page").
 */
/** Content → background: "may this document have the MAIN-world bridge?" Answered once it is in, or not. */
export const BRIDGE_REQUEST = 'tabmcp/bridge';
/** Background → content: no agent is connected any more; end everything that runs in the page. */
export const SLEEP_MESSAGE = 'tabmcp/sleep';
