// zod/mini: bundled by the content script (see tool.ts).
import * as z from 'zod/mini';

/** Longest string id any tabmcp end accepts (the proxy's mapped ids included). */
export const MAX_ID_LENGTH = 512;
export const JsonRpcId = z.union([z.string().check(z.maxLength(MAX_ID_LENGTH)), z.int()]);
export type JsonRpcId = z.infer<typeof JsonRpcId>;

export const JsonRpcErrorObject = z.object({
  code: z.int(),
  message: z.string(),
  data: z.optional(z.unknown()),
});
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObject>;

export const JsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.string().check(z.minLength(1), z.maxLength(256)),
  params: z.optional(z.unknown()),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>;

export const JsonRpcNotification = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().check(z.minLength(1), z.maxLength(256)),
  params: z.optional(z.unknown()),
});
export type JsonRpcNotification = z.infer<typeof JsonRpcNotification>;

export const JsonRpcSuccess = z.object({ jsonrpc: z.literal('2.0'), id: JsonRpcId, result: z.unknown() });
export const JsonRpcFailure = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.nullable(JsonRpcId),
  error: JsonRpcErrorObject,
});
export type JsonRpcSuccess = z.infer<typeof JsonRpcSuccess>;
export type JsonRpcFailure = z.infer<typeof JsonRpcFailure>;

/** Any JSON-RPC 2.0 message; order matters: a request has both id and method. */
export const JsonRpcMessage = z.union([JsonRpcRequest, JsonRpcNotification, JsonRpcSuccess, JsonRpcFailure]);
export type JsonRpcMessage = z.infer<typeof JsonRpcMessage>;

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}
export function isResponse(message: JsonRpcMessage): message is JsonRpcSuccess | JsonRpcFailure {
  return !('method' in message);
}
