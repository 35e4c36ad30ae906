import { ErrorCode, JsonRpcId, type ProtocolError, parseMessage } from '@tabmcp/protocol';
import type { z } from 'zod';

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: ProtocolError; id: JsonRpcId | null };

/**
 * Size cap, JSON decode and schema check in one step. On failure it also recovers the request id when there
 * is a usable one, because JSON-RPC wants an Invalid Request answered with the id it carried.
 */
export function decodeFrame<S extends z.ZodType>(
  schema: S,
  raw: string,
  what: string,
  maxBytes: number,
): Decoded<z.infer<S>> {
  const parsed = parseMessage(schema, raw, what, maxBytes);
  if (parsed.ok) return parsed;
  return { ok: false, error: parsed.error, id: parsed.error.code === ErrorCode.InvalidRequest ? idOfFrame(raw) : null };
}

/** The frame's id when it is a valid JSON-RPC id, else null. */
export function idOfFrame(raw: string): JsonRpcId | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || !('id' in value)) return null;
    const id = JsonRpcId.safeParse(value.id);
    return id.success ? id.data : null;
  } catch {
    return null;
  }
}

/** The raw `id` of a frame that failed validation, whatever its type: used to fail a mapped call at once. */
export function rawIdOf(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && 'id' in value ? value.id : undefined;
  } catch {
    return undefined;
  }
}
