import { z } from 'zod';
import { JsonRpcId } from './jsonrpc-id';

export const JsonRpcErrorObject = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObject>;

export const JsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId,
  method: z.string().min(1).max(256),
  params: z.unknown().optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>;

export const JsonRpcNotification = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1).max(256),
  params: z.unknown().optional(),
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
