const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The level follows from the event's name, so the many call sites stay `log(event, details)`:
 * `…error`/`…failed` are errors, events that report something refused, lost or missing are
 * warnings, `mcp.message` (one line per protocol message) is debug, the rest is info.
 */
export function levelOf(event: string): LogLevel {
  if (/(error|failed)$/.test(event)) return 'error';
  if (
    /rejected|refused|missing|insecure|lost|unknown|gone|late|unavailable|no-browser|evicted|down$|disconnected/.test(
      event,
    )
  )
    return 'warn';
  return event === 'mcp.message' ? 'debug' : 'info';
}

/** --log-level, else TABMCP_LOG_LEVEL, else info; TABMCP_LOG=silent (older setting) turns logging off. */
export function parseLogLevel(value: string | undefined, env: NodeJS.ProcessEnv = process.env): LogLevel | 'silent' {
  const chosen = value ?? env.TABMCP_LOG_LEVEL;
  if (chosen === undefined) return env.TABMCP_LOG === 'silent' ? 'silent' : 'info';
  if ((LOG_LEVELS as readonly string[]).includes(chosen)) return chosen as LogLevel;
  throw new Error(`--log-level (or TABMCP_LOG_LEVEL) must be one of ${LOG_LEVELS.join(', ')}, got ${chosen}`);
}

/** stdout belongs to the MCP protocol: every log line goes to stderr, one JSON object each. */
export function createLogger(level: LogLevel | 'silent' = parseLogLevel(undefined)) {
  const limit = level === 'silent' ? -1 : LOG_LEVELS.indexOf(level);
  return (event: string, details: Record<string, unknown> = {}) => {
    const eventLevel = levelOf(event);
    if (LOG_LEVELS.indexOf(eventLevel) > limit) return;
    process.stderr.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: eventLevel, event, ...details })}\n`,
    );
  };
}
