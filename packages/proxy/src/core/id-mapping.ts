import type { JsonRpcId } from '@tabmcp/protocol';

/** Id of the one request the proxy itself sends to an extension (docs/requirements.md#remote-proxy 1.2). */
export const AUTHENTICATE_REQUEST_ID = 'proxy:1';

export function newConnectionId(): string {
  return `conn-${crypto.randomUUID()}`;
}

/**
 * A browser's id: the same for the same user and instance key at every reconnect (a name-based
 * UUID), random for a browser that sends no key. Scoped by user, so one user's key cannot name
 * another user's browser.
 */
export async function extensionIdFor(userId: string, instance: string | undefined): Promise<string> {
  if (instance === undefined) return `ext-${crypto.randomUUID()}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${userId}\u0000${instance}`));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `ext-${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16] ?? '0', 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function newMcpClientId(): string {
  return `mcp-${crypto.randomUUID()}`;
}

/** The id an extension sees: `"conn-<uuid>:<original>"`, so several clients may reuse the same ids. */
export function mapRequestId(connectionId: string, id: JsonRpcId): string {
  return `${connectionId}:${id}`;
}

/**
 * Which connection a mapped id belongs to. Connection ids never contain ':', so the first colon ends it;
 * whatever follows is the client's own id, which the caller's pending table turns back into its original type.
 */
export function connectionIdOfMappedId(id: unknown): string | undefined {
  if (typeof id !== 'string' || !id.startsWith('conn-')) return undefined;
  const colon = id.indexOf(':');
  return colon > 5 ? id.slice(0, colon) : undefined;
}

// Client ids that could be mistaken for the proxy's own ids or for an already-mapped id are refused,
// so no client can make the proxy or an extension confuse one caller with another.
const RESERVED_ID = /^(?:proxy:|ext:)|conn-[^:]*:/i;

export function isReservedClientId(id: JsonRpcId): boolean {
  return typeof id === 'string' && RESERVED_ID.test(id);
}
