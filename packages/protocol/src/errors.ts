/** JSON-RPC 2.0 error codes, plus the application codes used across tabmcp's links. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Generic server-side failure (proxy-protocol.md uses it for auth and routing failures). */
  ServerError: -32000,
  /** mcp-b.md: the tab that should run the call does not exist (any more). */
  TabNotFound: -32001,
  RequestTimeout: -32002,
  BrowserNotConnected: -32003,
  ToolNotFound: -32004,
  SiteNotAllowed: -32005,
  MessageTooLarge: -32006,
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
