/**
 * Every error code on tabmcp's links, as data: the JSON-RPC 2.0 codes, docs/requirements.md#remote-proxy's own
 * (-32000 and -32001 keep the meanings its examples give them), and tabmcp's application codes.
 * One code has one meaning on every link, because an error raised in the hub can travel out
 * through the local link or the remote proxy. Errors are classified by these codes, never by
 * their wording (a test checks that no two names share a value).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Generic server-side failure (docs/requirements.md#remote-proxy uses it for auth, rate limits and "Extension not found"). */
  ServerError: -32000,
  /** docs/requirements.md#remote-proxy: `connect` while this MCP client is already connected to an extension. */
  AlreadyConnected: -32001,
  RequestTimeout: -32002,
  BrowserNotConnected: -32003,
  ToolNotFound: -32004,
  SiteNotAllowed: -32005,
  MessageTooLarge: -32006,
  /**
   * docs/requirements.md#hub's TabNotFound: the tab that should run the call does not exist (any more), and the
   * call never reached its page. Not docs/requirements.md#hub's example -32001, which the proxy link already uses.
   */
  TabNotFound: -32007,
  /** The call reached the page, which then went away (reload, navigation, close) before answering: it may have run. */
  PageLostMidCall: -32008,
  /** Remote proxy: the extension this client was connected to went away (it disconnected, or its proxy instance did). */
  ExtensionGone: -32009,
  /** The page's tool answered with something that is not a tool result: calling it again will not help. */
  FaultyToolResult: -32010,
  /** Remote proxy: the route to the instance that holds the browser broke while a call was in flight: it may have run. */
  ProxyRouteLost: -32011,
  /**
   * Remote proxy: the token was refused (bad, expired, of the wrong role or user); asking again with it will not
   * help. docs/requirements.md#remote-proxy gives the `mcp_handshake` refusal -32000, so that reply keeps -32000 and
   * carries this code as `error.data.code`; an upgrade refused with HTTP 401 means the same.
   */
  TokenRefused: -32012,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that carries a JSON-RPC code across a boundary. */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export function toProtocolError(error: unknown, fallbackCode: number = ErrorCode.InternalError): ProtocolError {
  if (error instanceof ProtocolError) return error;
  return new ProtocolError(fallbackCode, errorMessage(error));
}

/**
 * What an agent is told when a call reached the page and the page went away before answering:
 * the call may have run, so it must not simply be repeated (a non-idempotent tool would run twice).
 * Both views give this text (the focused one in the server, the `all` one in the hub).
 */
export const mayHaveRun = (tool: string) =>
  `The call reached the page, so it may have run. Check the page's state (list_tabs, then read the page) before calling "${tool}" again.`;
