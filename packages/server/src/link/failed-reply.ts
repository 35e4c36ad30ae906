import { ErrorCode, type ExtensionToServer } from '@tabmcp/protocol';

// JSON.stringify keeps insertion order, and the extension builds replies type first, id second.
const REPLY_HEAD = /^\{"type":"(toolResult|response|connected)","(callId|requestId)":"([^"\\]{1,128})"/;

/**
 * A reply the link refused (too large, malformed) still names the call it answers in its first
 * bytes: turn it into an error for that call, so the agent hears at once instead of timing out.
 */
export function failedReply(raw: string, reason: string): ExtensionToServer | undefined {
  const head = REPLY_HEAD.exec(raw.slice(0, 300));
  if (!head) return undefined;
  const [, type, , id = ''] = head;
  const message = `The browser's answer was refused: ${reason}. Ask the page for less (a smaller result), or split the work.`;
  return type === 'toolResult'
    ? { type: 'toolResult', callId: id, error: message, code: ErrorCode.MessageTooLarge }
    : { type: 'response', requestId: id, error: { code: ErrorCode.MessageTooLarge, message } };
}
