import { ErrorCode, type ExtensionToServer, MAX_ERROR_TEXT, MAX_MESSAGE_BYTES, utf8Length } from '@tabmcp/protocol';

export interface FittedFrame {
  text: string;
  /** Set when the message had to change to fit: what was done, for the worker log. */
  note?: string;
}

/**
 * Every frame to the server fits its cap in UTF-8 bytes (the server counts bytes, not UTF-16
 * units). A reply too large to send becomes an error reply, so its caller hears at once; a list
 * too large is cut to what fits; an event that cannot be cut is not sent (undefined).
 */
export function fitFrame(message: ExtensionToServer, maxBytes = MAX_MESSAGE_BYTES): FittedFrame | undefined {
  const bounded = boundErrorText(message);
  const text = JSON.stringify(bounded);
  const bytes = utf8Length(text);
  if (bytes <= maxBytes) return { text };
  const note = `${bounded.type} of ${bytes} bytes is over the ${maxBytes}-byte link limit`;
  const tooLarge = `The browser's answer is ${bytes} bytes, over the ${maxBytes}-byte limit of the browser link. Ask for less (a smaller result, fewer items), or split the work into several calls.`;
  switch (bounded.type) {
    case 'toolResult':
      return {
        text: JSON.stringify({
          type: 'toolResult',
          callId: bounded.callId,
          error: tooLarge,
          code: ErrorCode.MessageTooLarge,
        }),
        note,
      };
    case 'response':
      return {
        text: JSON.stringify({
          type: 'response',
          requestId: bounded.requestId,
          error: { code: ErrorCode.MessageTooLarge, message: tooLarge },
        }),
        note,
      };
    case 'hubToolsChanged':
      return {
        text: largestPrefix(
          bounded.changed.length,
          (n) => ({ ...bounded, changed: bounded.changed.slice(0, n) }),
          maxBytes,
        ),
        note,
      };
    case 'connected':
      // Without their tools: the server asks for a tab's tools when the agent focuses it.
      return { text: JSON.stringify({ ...bounded, tabs: bounded.tabs.map(({ tools: _tools, ...tab }) => tab) }), note };
    default:
      return undefined;
  }
}

/** Page error texts can be any length; the link takes MAX_ERROR_TEXT of them. */
function boundErrorText(message: ExtensionToServer): ExtensionToServer {
  if (message.type === 'toolResult' && message.error !== undefined && message.error.length > MAX_ERROR_TEXT) {
    return { ...message, error: `${message.error.slice(0, MAX_ERROR_TEXT)}… (cut)` };
  }
  if (message.type === 'response' && message.error && message.error.message.length > MAX_ERROR_TEXT) {
    return {
      ...message,
      error: { ...message.error, message: `${message.error.message.slice(0, MAX_ERROR_TEXT)}… (cut)` },
    };
  }
  return message;
}

/** The longest list prefix whose frame fits, by bisection (each probe serialises once). */
function largestPrefix(length: number, build: (count: number) => unknown, maxBytes: number): string {
  let low = 0;
  let high = length;
  let best = JSON.stringify(build(0));
  while (low <= high) {
    const middle = (low + high) >> 1;
    const text = JSON.stringify(build(middle));
    if (utf8Length(text) <= maxBytes) {
      best = text;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}
