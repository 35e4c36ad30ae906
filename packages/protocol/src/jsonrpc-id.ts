// The one JSON-RPC schema the content script needs (port.ts), in zod/mini and apart from jsonrpc.ts:
// esbuild keeps every schema a bundled module builds, used or not, so the content script would build
// all of jsonrpc.ts's on every page load (docs/architecture.md, "zod in the extension").
import * as z from 'zod/mini';

/** Longest string id any tabmcp end accepts (the proxy's mapped ids included). */
export const MAX_ID_LENGTH = 512;
export const JsonRpcId = z.union([z.string().check(z.maxLength(MAX_ID_LENGTH)), z.int()]);
export type JsonRpcId = z.infer<typeof JsonRpcId>;
