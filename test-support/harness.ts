import type { Browser } from 'playwright-core';
import { browserLaunchedBy } from './cdp';
import { freePort } from './net';
import type { StdioMcp } from './stdio-client';
import { startTabmcpProcess } from './tabmcp-process';

export { freePort } from './net';
export { repoRoot, serverBin } from './paths';
export { jsonOf, textOf } from './results';
export { waitFor } from './wait';

export interface TabmcpUnderTest extends StdioMcp {
  port: number;
  /** Playwright over CDP into the launched browser, for checks that do not go through tabmcp. */
  cdp: () => Promise<Browser>;
}

/** Starts the built `tabmcp` over stdio with the official MCP SDK client, as an agent would. */
export async function startTabmcp(extraArgs: string[] = []): Promise<TabmcpUnderTest> {
  const port = await freePort();
  const tabmcp = await startTabmcpProcess({
    args: ['--headless', '--port', String(port), ...extraArgs],
    env: { TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' },
    clientName: 'tabmcp-e2e',
  });
  let browser: Browser | undefined;
  return {
    ...tabmcp,
    port,
    cdp: async () => {
      browser ??= await browserLaunchedBy(tabmcp.stderr);
      return browser;
    },
    close: async () => {
      await browser?.close().catch(() => {});
      await tabmcp.close();
    },
  };
}
