/**
 * What an MCP client needs to reach `tabmcp --http`: the URL and the bearer header, written out
 * for the clients the user guide names, so the user copies a line that works (issue 28: the
 * documented `claude mcp add --transport http …` line failed with 401 for want of the header).
 */
export function httpClientSetup(url: string, bearerToken: string): string {
  const header = `Authorization: Bearer ${bearerToken}`;
  const remote = { url, headers: { Authorization: `Bearer ${bearerToken}` } };
  return `MCP over Streamable HTTP at ${url}
Every request needs this header:
  ${header}

Claude Code:
  claude mcp add --transport http tabmcp ${url} --header "${header}"
Cursor (~/.cursor/mcp.json or .cursor/mcp.json):
  ${JSON.stringify({ mcpServers: { tabmcp: remote } })}
VS Code (.vscode/mcp.json):
  ${JSON.stringify({ servers: { tabmcp: { type: 'http', ...remote } } })}
Claude Desktop reads only stdio servers from its config file: give it the stdio setup
  ${JSON.stringify({ mcpServers: { tabmcp: { command: 'npx', args: ['-y', 'tabmcp', '--launch', '--fallback-tools'] } } })}
`;
}
