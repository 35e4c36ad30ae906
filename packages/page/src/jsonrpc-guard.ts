/** Zod-free JSON-RPC shape checks for the page bundle; they mirror `JsonRpcMessage` in @tabmcp/protocol. */
type RpcId = string | number;
export interface RpcRequest {
  jsonrpc: '2.0';
  id: RpcId;
  method: string;
  params?: unknown;
}
export interface RpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}
export interface RpcResponse {
  jsonrpc: '2.0';
  id: RpcId | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function isId(value: unknown): value is RpcId {
  return (typeof value === 'string' && value.length <= 512) || (typeof value === 'number' && Number.isInteger(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isRpcRequest(value: unknown): value is RpcRequest {
  return isObject(value) && value.jsonrpc === '2.0' && isId(value.id) && typeof value.method === 'string';
}

export function isRpcNotification(value: unknown): value is RpcNotification {
  return isObject(value) && value.jsonrpc === '2.0' && !('id' in value) && typeof value.method === 'string';
}

export function isRpcResponse(value: unknown): value is RpcResponse {
  if (!isObject(value) || value.jsonrpc !== '2.0' || 'method' in value) return false;
  if (!(isId(value.id) || value.id === null)) return false;
  if ('result' in value) return true;
  return isObject(value.error) && typeof value.error.code === 'number' && typeof value.error.message === 'string';
}
