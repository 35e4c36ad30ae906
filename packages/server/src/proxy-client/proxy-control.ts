import {
  ErrorCode,
  errorMessage,
  ListExtensionsResult,
  type Logger,
  McpHandshakeResult,
  ProtocolError,
  ProxyConnectResult,
  validate,
} from '@tabmcp/protocol';
import type { z } from 'zod';
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

/**
 * connect to the chosen browser. It may have left between the list and the connect: then `failed`
 * hears why (the caller looks again), and a connection of ours the proxy still holds is dropped first.
 */
export async function connectToBrowser(
  rpc: ProxyRpc,
  extension: ListedExtension,
  timeoutMs: number,
  failed: (problem: string) => void,
): Promise<z.infer<typeof ProxyConnectResult> | undefined> {
  let connected: unknown;
  try {
    connected = await rpc.request('connect', { extension_id: extension.id }, timeoutMs);
  } catch (error) {
    failed(`Could not connect to "${extension.name}": ${errorMessage(error)}`);
    if (error instanceof ProtocolError && error.code === ErrorCode.AlreadyConnected)
      await rpc.request('disconnect', {}, timeoutMs).catch(() => {});
    return undefined;
  }
  const result = validate(ProxyConnectResult, connected, 'connect answer');
  if (!result.ok) throw result.error;
  return result.value;
}
