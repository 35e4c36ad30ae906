import { ErrorCode, errorMessage, ProtocolError } from '@tabmcp/protocol';

/**
 * A forwarded call that failed because the browser went away says so, with what to do; other
 * failures of the proxy itself (rate limit, an unreachable instance) say where they come from.
 * Read off the proxy's codes (errors.ts), never its wording.
 */
export function explainProxyFailure(error: unknown, method: string, proxyUrl: string): Error {
  if (!(error instanceof ProtocolError)) return error instanceof Error ? error : new Error(errorMessage(error));
  if (error.code === ErrorCode.ExtensionGone)
    return new ProtocolError(
      ErrorCode.BrowserNotConnected,
      `${method}: the remote browser disconnected from the proxy (${error.message}); tabmcp reconnects by itself`,
    );
  if (PROXY_OWN_CODES.has(error.code))
    return new ProtocolError(error.code, `${method} through the proxy ${proxyUrl}: ${error.message}`);
  return error;
}

/** Failures the proxy raises itself rather than passes on from the browser. */
const PROXY_OWN_CODES: ReadonlySet<number> = new Set([ErrorCode.ServerError, ErrorCode.ProxyRouteLost]);

/** What to do about a token the proxy refused: only a new one helps. */
export const TOKEN_REFUSED_NEXT_STEP =
  'Mint a new agent token (tabmcp-proxy token --user <id> --role client) and give it to tabmcp in TABMCP_PROXY_TOKEN or --token-file';
