import type { LinkProblem } from '@tabmcp/protocol';

/**
 * What the popup and the options page say when the link to tabmcp is down: the cause and the next
 * step (issue 28: they asked whether a server was running and left it there).
 */
export function linkAdvice(problem: LinkProblem | undefined, serverUrl: string, extensionId: string): string {
  const port = /:(\d+)\/?$/.exec(serverUrl)?.[1] ?? '8765';
  switch (problem) {
    case 'unpaired':
      return 'Not paired. Run `npx -y tabmcp pair` in a terminal and paste the port and the token it prints here, then Save.';
    case 'wrong-token':
      return `The tabmcp server on port ${port} holds another pairing token. Run \`npx -y tabmcp pair\` again and paste its token here, then Save.`;
    case 'refused':
      return `The tabmcp server on port ${port} does not accept this extension's id. Start tabmcp with --allow-extension-id ${extensionId} (or set TABMCP_EXTENSION_IDS=${extensionId}).`;
    case 'not-tabmcp':
      return `Port ${port} is held by another program, not tabmcp. Start tabmcp with --port <another port>, then pair with \`npx -y tabmcp pair --port <that port>\` and save that port here.`;
    case 'no-server':
      return `No tabmcp server is running on port ${port}. Start your MCP client (it starts tabmcp), or check that the port here is the one \`npx -y tabmcp pair\` prints.`;
    default:
      return `Not connected to ${serverUrl} yet; trying again every few seconds.`;
  }
}
