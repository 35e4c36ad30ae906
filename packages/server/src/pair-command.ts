import { EXTENSION_ID } from '@tabmcp/protocol';
import { httpClientSetup } from './http-client-setup';
import { httpBearerToken } from './mcp/http-token';

/** The port `tabmcp pair` writes into the HTTP client setup when not given `--http PORT` (the docs' port). */
const DOCUMENTED_HTTP_PORT = 8770;

/**
 * What `tabmcp pair` prints: the token and the few steps that pair a Chrome the user already runs,
 * then the setup of MCP clients of `tabmcp --http`.
 */
export function pairingInstructions(port: number, token: string, extensionDir: string, httpPort?: number): string {
  const shownHttpPort = httpPort || DOCUMENTED_HTTP_PORT;
  return `Pair your own Chrome (or Chromium, Edge, Brave) with tabmcp

  Port:   ${port}
  Token:  ${token}

1. Load the extension once: open chrome://extensions, turn on "Developer mode",
   click "Load unpacked" and pick ${extensionDir}
   (tabmcp installed it there, under its home, for this version; \`tabmcp extension\` says so again.
   A copy from the release zip or the Chrome Web Store has an id of its own: start tabmcp with
   --allow-extension-id <the id chrome://extensions shows>.)
2. Open its options: chrome://extensions → tabmcp → Details → "Extension options"
   (or chrome-extension://${EXTENSION_ID}/options.html)
3. Paste the port and the token above, click "Save". The page shows "Connected" as soon as a
   tabmcp server runs on that port (start one from your MCP client, e.g. Claude Code).

The token stays the same until you delete $TABMCP_HOME/pairing-token (default ~/.tabmcp).
tabmcp --launch needs none of this: the Chromium it starts is paired by itself.

For \`tabmcp --http ${shownHttpPort}\` (${httpPort ? 'the port you gave' : 'another port: `tabmcp pair --http <port>`'}):
${httpClientSetup(`http://127.0.0.1:${shownHttpPort}/mcp`, httpBearerToken(token))}`;
}
