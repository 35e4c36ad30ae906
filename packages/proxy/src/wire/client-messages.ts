import { JsonRpcErrorObject, JsonRpcId } from '@tabmcp/protocol';
import { z } from 'zod';

/** The one schema for every frame an MCP client sends (requests and notifications only). */
export const McpClientFrame = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(JsonRpcId),
  method: z.string().min(1).max(256),
  params: z.unknown().optional(),
  /** docs/requirements.md#remote-proxy 5.1 / DESIGN decision 7: optional; when present it must be the client's own. */
  connectionId: z.string().max(256).optional(),
});
export type McpClientFrame = z.infer<typeof McpClientFrame>;

// A mapped id is `conn-<uuid>:` plus a client id of up to 512 characters, so the extension's ids may be longer.
const ExtensionSideId = z.union([z.string().max(1024), z.number().int()]);

/**
 * The one schema for every frame an extension sends. Deliberately loose about result/error so a reply that
 * carries neither (or both) is still recognised and turned into an error for the waiting client.
 */
export const ExtensionFrame = z.object({
  jsonrpc: z.literal('2.0'),
  id: ExtensionSideId.nullable().optional(),
  method: z.string().min(1).max(256).optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.optional(JsonRpcErrorObject),
});
export type ExtensionFrame = z.infer<typeof ExtensionFrame>;

const Token = z.string().min(1).max(16_384);

/** docs/requirements.md#remote-proxy 1.3; `access_token` is accepted as well (DESIGN decision 7). */
export const AuthenticateResult = z.object({
  name: z.string().min(1).max(200),
  accessToken: Token.optional(),
  access_token: Token.optional(),
  /**
   * tabmcp's own addition: a random key the browser keeps across reconnects, so its extension id
   * stays the same and `--extension-id` finds it again (issue 27 P3). Without it the id is random.
   */
  instance: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .optional(),
});
export type AuthenticateResult = z.infer<typeof AuthenticateResult>;

export const HandshakeParams = z.object({
  accessToken: Token.optional(),
  access_token: Token.optional(),
});
export type HandshakeParams = z.infer<typeof HandshakeParams>;

export const ConnectParams = z.object({ extension_id: z.string().min(1).max(256) });

/** Params of the control methods that take none: absent, an object or an empty array. */
export const NoParams = z.union([z.undefined(), z.record(z.string(), z.unknown()), z.array(z.unknown()).length(0)]);
