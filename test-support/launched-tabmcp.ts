import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type BenchSite, startBenchSite } from './bench-site';
import { startTabmcp, type TabmcpUnderTest } from './harness';
import { textOf } from './results';

/** tabmcp connected to a browser it launched, beside the bench pages (echo.html publishes `echo` and `wait`). */
export interface LaunchedTabmcp {
  site: BenchSite;
  tabmcp: TabmcpUnderTest;
  /** Opens bench/pages/echo.html (with `?query` when given) and checks that it opened. */
  openEchoTab(query?: string): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function startLaunchedTabmcp(): Promise<LaunchedTabmcp> {
  const site = await startBenchSite();
  const tabmcp = await startTabmcp().catch(async (error: unknown) => {
    await site.close();
    throw error;
  });
  const close = async () => {
    await tabmcp.close();
    await site.close();
  };
  try {
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    site,
    tabmcp,
    openEchoTab: async (query) => {
      const opened = await tabmcp.call('open_tab', { url: `${site.url}/echo.html${query ? `?${query}` : ''}` });
      assert.notEqual(opened.isError, true, textOf(opened));
      return opened;
    },
    close,
  };
}
