import type { JsonRpcErrorObject } from '@tabmcp/protocol';

/** What an adapter drives for each socket: frames in, then exactly one `closed()`. */
export interface Session {
  receive(frame: string): void;
  /** Authenticated sockets get the full frame size and count toward `maxConnections`. */
  readonly isAuthenticated: boolean;
  /** The socket is gone (idempotent). */
  closed(): void;
}

/** How an extension answered a forwarded call. */
export type CallOutcome = { result: unknown; error?: undefined } | { error: JsonRpcErrorObject };

/** An MCP client's route to one extension. */
export interface Link {
  connectionId: string;
  extensionId: string;
  extensionName: string;
  /** Node whose socket holds the extension. */
  nodeId: string;
}

export interface AttachRequest {
  connectionId: string;
  extensionId: string;
  userId: string;
  mcpClientId: string;
}

export interface AttachOutcome {
  extensionName: string;
  peerCount: number;
  nodeId: string;
}
