/**
 * Zod-free constants and guards of the MCP-B tab envelope, for code that ships inside web pages
 * where every kilobyte counts. `TabEnvelope` in tab-envelope.ts is the same shape as a zod schema.
 */
export const DEFAULT_TAB_CHANNEL = 'mcp-default';
export const DEFAULT_IFRAME_CHANNEL = 'mcp-iframe';

export type TabDirection = 'client-to-server' | 'server-to-client';

export interface TabEnvelopeShape {
  channel: string;
  type: 'mcp';
  direction: TabDirection;
  payload: unknown;
}

/** Most window messages belong to other code on the page: filter cheaply before parsing. */
export function isTabEnvelope(data: unknown, channel: string, direction: TabDirection): data is TabEnvelopeShape {
  if (typeof data !== 'object' || data === null) return false;
  const record = data as Record<string, unknown>;
  return record.channel === channel && record.type === 'mcp' && record.direction === direction && 'payload' in record;
}

export function tabEnvelope(channel: string, direction: TabDirection, payload: unknown): TabEnvelopeShape {
  return { channel, type: 'mcp', direction, payload };
}
