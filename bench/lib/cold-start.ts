import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { startBenchSite } from '../../test-support/bench-site';
import { freePort } from '../../test-support/net';
import { textOf } from '../../test-support/results';
import { startBenchTabmcp } from './tabmcp-client';

export interface ColdStart {
  totalMs: number;
  /** Spawn until the MCP initialize handshake is done. */
  initializedMs: number;
  /** Until connect_browser reports the launched browser connected. */
  connectedMs: number;
  /** Until open_tab of the bench page returned. */
  tabOpenedMs: number;
}

/**
 * `tabmcp --launch` from process start to the first tools/list that shows the bench page's tools,
 * as an agent gets there: connect_browser, open_tab, tools/list. `env` goes to tabmcp (e.g.
 * TABMCP_PROFILE_ROOT); `node` runs it (this process's Node by default).
 */
export async function measureColdStart(env: Record<string, string> = {}, node?: string): Promise<ColdStart> {
  const site = await startBenchSite();
  const port = await freePort();
  const started = performance.now();
  const tabmcp = await startBenchTabmcp(['--headless', '--launch', '--port', String(port)], [], env, node);
  try {
    const initializedMs = performance.now() - started;
    // launch=true waits for the extension the --launch browser carries (the launcher does not start a second one).
    const connected = await tabmcp.call('connect_browser', { launch: true });
    if (connected.isError) throw new Error(`connect_browser: ${textOf(connected)}`);
    const connectedMs = performance.now() - started;
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/echo.html` });
    if (opened.isError) throw new Error(`open_tab: ${textOf(opened)}`);
    const tabOpenedMs = performance.now() - started;
    for (let attempt = 0; attempt < 500; attempt++) {
      if ((await tabmcp.toolNames()).includes('echo')) {
        return { totalMs: performance.now() - started, initializedMs, connectedMs, tabOpenedMs };
      }
      await new Promise((done) => setTimeout(done, 5));
    }
    throw new Error('the bench page tools never showed in tools/list');
  } finally {
    await tabmcp.close();
    await site.close();
    await removeLaunchedProfile(tabmcp.stderr());
  }
}

/**
 * tabmcp's launcher removes its profile on a timer that its own exit cuts short, so each cold start
 * would leave a copy (about 13 MB) in the temp dir: remove the one this run made.
 */
export async function removeLaunchedProfile(log: string): Promise<void> {
  const profileDir = /"event":"browser\.launched"[^\n]*"profileDir":"([^"]+)"/.exec(log)?.[1];
  if (!profileDir || !basename(profileDir).startsWith('tabmcp-profile-')) return;
  await new Promise((done) => setTimeout(done, 500));
  rmSync(profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
