import { EXTENSION_ID } from '@tabmcp/protocol';
import { httpBearerToken } from './mcp/http-token';

/** What `tabmcp pair` prints: the token and the few steps that pair a Chrome the user already runs. */
export function pairingInstructions(port: number, token: string, extensionDir: string): string {
  return `Pair your own Chrome (or Chromium, Edge, Brave) with tabmcp

  Port:   ${port}
  Token:  ${token}

1. Load the extension once: open chrome://extensions, turn on "Developer mode",
   click "Load unpacked" and pick ${extensionDir}
   (A copy from the release zip or the Chrome Web Store has an id of its own: start tabmcp with
   --allow-extension-id <the id chrome://extensions shows>.)
2. Open its options: chrome://extensions → tabmcp → Details → "Extension options"
   (or chrome-extension://${EXTENSION_ID}/options.html)
3. Paste the port and the token above, click "Save". The page shows "Connected" as soon as a
   tabmcp server runs on that port (start one from your MCP client, e.g. Claude Code).

The token stays the same until you delete $TABMCP_HOME/pairing-token (default ~/.tabmcp).
tabmcp --launch needs none of this: the Chromium it starts is paired by itself.

MCP clients of \`tabmcp --http <port>\` send this header with every request:
  Authorization: Bearer ${httpBearerToken(token)}
`;
}
