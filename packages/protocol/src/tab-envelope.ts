// zod/mini, not classic: the extension's background worker bundles this file, and mini is tree-shaken
// where classic is not (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';
import { JsonRpcMessage } from './jsonrpc';

/**
 * The postMessage envelope of MCP-B's tab transports, kept byte-compatible so pages built on
 * `@mcp-b/transports` work unchanged: `{channel, type:'mcp', direction, payload}`, where the payload
 * is a JSON-RPC message or one of the handshake words.
 */

export const HandshakeWord = z.enum(['mcp-check-ready', 'mcp-server-ready', 'mcp-server-stopped']);
export type HandshakeWord = z.infer<typeof HandshakeWord>;

const TabDirectionSchema = z.enum(['client-to-server', 'server-to-client']);

export const TabEnvelope = z.object({
  channel: z.string().check(z.minLength(1), z.maxLength(256)),
  type: z.literal('mcp'),
  direction: TabDirectionSchema,
  payload: z.union([HandshakeWord, JsonRpcMessage]),
});
export type TabEnvelope = z.infer<typeof TabEnvelope>;
