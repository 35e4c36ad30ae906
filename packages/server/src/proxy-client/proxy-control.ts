import { ListExtensionsResult, type Logger, McpHandshakeResult, validate } from '@tabmcp/protocol';
import { chooseExtension, type ListedExtension } from './choose-extension';
import type { ProxyRpc } from './proxy-rpc';

/** mcp_handshake: the proxy takes the token, or refuses it (ErrorCode.TokenRefused). */
export async function authenticate(rpc: ProxyRpc, accessToken: string, timeoutMs: number, log: Logger): Promise<void> {
  const handshake = validate(
    McpHandshakeResult,
    await rpc.request('mcp_handshake', { accessToken }, timeoutMs),
    'mcp_handshake answer',
  );
  if (!handshake.ok) throw handshake.error;
  log('proxy.authenticated', { user: handshake.value.user_id, client: handshake.value.mcp_client_id });
}

/** list_extensions, then the browser wanted among them, or why none fits. */
export async function chooseListedBrowser(
  rpc: ProxyRpc,
  wanted: { extensionId?: string; browserName?: string },
  timeoutMs: number,
): Promise<{ extension: ListedExtension } | { problem: string }> {
  const listed = validate(
    ListExtensionsResult,
    await rpc.request('list_extensions', {}, timeoutMs),
    'list_extensions answer',
  );
  if (!listed.ok) throw listed.error;
  return chooseExtension(listed.value.extensions, wanted);
}
