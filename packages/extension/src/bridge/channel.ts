/** The private postMessage channel on which the MAIN-world bridge serves what it finds on the page. */
export const BRIDGE_CHANNEL = 'tabmcp-bridge';
