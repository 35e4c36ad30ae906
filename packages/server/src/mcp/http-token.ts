import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The bearer token MCP clients present to `tabmcp --http`. Derived from the pairing token (one
 * secret to keep, one file to delete to rotate both) but not equal to it: an MCP client that
 * holds it cannot pose as the extension on the browser link. `tabmcp pair` prints it.
 */
export function httpBearerToken(pairingToken: string): string {
  return createHmac('sha256', pairingToken).update('tabmcp mcp-over-http bearer v1').digest('hex');
}

/** Whether an Authorization header carries exactly this bearer token (constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
