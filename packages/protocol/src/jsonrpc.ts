// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';
import { JsonRpcId } from './jsonrpc-id';

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
