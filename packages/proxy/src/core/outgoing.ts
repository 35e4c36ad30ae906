import type { JsonRpcErrorObject, JsonRpcId } from '@tabmcp/protocol';

/** Serialisers for everything the proxy writes, so every frame has the same `jsonrpc`-first shape. */

export function resultFrame(id: JsonRpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export function errorFrame(id: JsonRpcId | null, error: JsonRpcErrorObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

export function errorFrameOf(id: JsonRpcId | null, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

export function requestFrame(id: JsonRpcId, method: string, params: unknown): string {
  return params === undefined
    ? JSON.stringify({ jsonrpc: '2.0', id, method })
    : JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

export function notificationFrame(method: string, params: unknown): string {
  return params === undefined
    ? JSON.stringify({ jsonrpc: '2.0', method })
    : JSON.stringify({ jsonrpc: '2.0', method, params });
}

/** ISO 8601 with the local offset, as in the spec's example `2025-10-20T21:43:53.163+0200`. */
export function localTimestamp(date: Date = new Date()): string {
  const offsetMinutes = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hours}${minutes}`;
}
