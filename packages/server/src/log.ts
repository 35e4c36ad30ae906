/** stdout belongs to the MCP protocol: every log line goes to stderr, one JSON object each. */
export function createLogger(quiet = process.env.TABMCP_LOG === 'silent') {
  return (event: string, details: Record<string, unknown> = {}) => {
    if (quiet) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...details })}\n`);
  };
}
