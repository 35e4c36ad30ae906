/** The core's whole view of a socket: adapters implement it, tests fake it. */
export interface Peer {
  send(frame: string): void;
  close(code: number, reason: string): void;
}

/** WebSocket close codes the proxy uses (RFC 6455 section 7.4.1). */
export const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  PolicyViolation: 1008,
  MessageTooBig: 1009,
  InternalError: 1011,
  /** RFC 6455 / IANA: the service is restarting; the client may reconnect. */
  ServiceRestart: 1012,
  TryAgainLater: 1013,
} as const;
