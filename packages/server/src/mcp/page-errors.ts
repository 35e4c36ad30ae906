import {
  type JSONRPCMessage,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { errorMessage } from '@tabmcp/protocol';

/** What a page answers when it has no such resource or prompt, or none at all (page SDK, MCP-B). */
const PAGE_NOT_FOUND_CODES: ReadonlySet<number> = new Set([
  ProtocolErrorCode.MethodNotFound,
  ProtocolErrorCode.InvalidParams,
]);
const NOT_FOUND_WORDS = /\b(not found|no (such )?(resource|prompt)|unknown (resource|prompt))\b/i;

function pageCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** A resource no page holds: -32602 with `data.uri` (SEP-2164); legacyResourceNotFound gives older revisions theirs. */
export function resourceNotFound(uri: string, message: string): ProtocolError {
  return new ResourceNotFoundError(uri, message);
}

/**
 * MCP up to 2025-11-25 says -32002 for a resource not found; 2026-07-28 made it -32602 with
 * `data.uri`, and the official SDK writes -32602 on every revision (it rewrites a thrown -32002).
 * So a connection that speaks an older revision gets its spec's code back on the way out: an
 * error whose data is exactly `{ uri }` is the SDK's resource-not-found (its own documented mark).
 */
export function legacyResourceNotFound<T extends JSONRPCMessage>(message: T): T {
  if (!('error' in message) || message.error.code !== ProtocolErrorCode.InvalidParams) return message;
  const data = message.error.data as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null || Object.keys(data).join() !== 'uri') return message;
  return { ...message, error: { ...message.error, code: ProtocolErrorCode.ResourceNotFound } };
}

/** A prompt name no page offers is invalid params (-32602), as MCP says for prompts/get. */
export function unknownPrompt(name: string, message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${name}". ${message}`);
}

/**
 * The MCP error for a page's failed answer: its "no such thing" becomes the not-found error of the
 * method (`notFound`); anything else (a timeout, a dropped link, a page that threw) is the server
 * failing to answer, -32603.
 */
export function pageFailure(
  method: string,
  error: unknown,
  notFound: (reason: string) => ProtocolError,
): ProtocolError {
  const reason = `The focused page could not answer ${method}: ${errorMessage(error)}`;
  const code = pageCode(error);
  // A hand-written window.mcp throws a plain Error ("No resource x://y"): its words are all there is.
  if ((code !== undefined && PAGE_NOT_FOUND_CODES.has(code)) || NOT_FOUND_WORDS.test(errorMessage(error)))
    return notFound(reason);
  return new ProtocolError(ProtocolErrorCode.InternalError, reason);
}
