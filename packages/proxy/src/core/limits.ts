/** Every bound the proxy enforces; all configurable, all with a default. */
export interface Limits {
  /** Largest frame accepted from any peer; bigger ones close the socket with 1009. */
  maxMessageBytes: number;
  /** Token bucket per connection: sustained messages per second... */
  ratePerSecond: number;
  /** ...and how many may arrive at once. */
  rateBurst: number;
  /** A socket that has not authenticated by then is closed. */
  handshakeTimeoutMs: number;
  /** A forwarded call the extension has not answered by then gets an error. */
  callTimeoutMs: number;
  /** Wait for presence look-ups and for another instance to accept a connect. */
  connectTimeoutMs: number;
  /** Calls one MCP client may have in flight at once. */
  maxInFlightPerClient: number;
  /** Ping interval; a peer that missed the previous pong is dropped. */
  pingIntervalMs: number;
  /** Authenticated sockets at once (all roles); more get HTTP 503 at upgrade. */
  maxConnections: number;
  /** Authenticated sockets of one user on this instance, both roles; more are refused (HTTP 429 or close 1013). */
  maxConnectionsPerUser: number;
  /** ...of which browsers: an agent fleet of one user cannot be crowded out by its own browsers, nor the reverse. */
  maxBrowsersPerUser: number;
  /** Sockets still authenticating, a budget of their own so idle ones cannot lock real users out. */
  maxUnauthenticated: number;
  /** ...of which one remote address may hold this many (behind a load balancer, raise it). */
  maxUnauthenticatedPerSource: number;
  /** Largest frame before authentication: the authenticate answer or handshake, with a token ≤ 16 KiB. */
  maxUnauthenticatedMessageBytes: number;
  /** A peer that lets this much unsent data pile up is too slow and is dropped. */
  maxBufferedBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxMessageBytes: 1024 * 1024,
  ratePerSecond: 200,
  rateBurst: 400,
  handshakeTimeoutMs: 10_000,
  callTimeoutMs: 120_000,
  connectTimeoutMs: 5_000,
  maxInFlightPerClient: 1_000,
  pingIntervalMs: 30_000,
  maxConnections: 50_000,
  maxConnectionsPerUser: 256,
  maxBrowsersPerUser: 32,
  maxUnauthenticated: 1_000,
  maxUnauthenticatedPerSource: 20,
  maxUnauthenticatedMessageBytes: 20 * 1024,
  maxBufferedBytes: 16 * 1024 * 1024,
};

export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides) as [keyof Limits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value <= 0) throw new Error(`Limit ${key} must be a positive number`);
    limits[key] = value;
  }
  return limits;
}
