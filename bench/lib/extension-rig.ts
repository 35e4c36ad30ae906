import { join } from 'node:path';
import { startBenchSite } from './bench-site';
import { launchChromium } from './chromium';
import { startFakeLinkServer } from './fake-link-server';
import { startFloorServer } from './floor-server';
import { repoRoot } from './tabmcp-client';

/**
 * tabmcp's real extension driven straight over its WebSocket (no MCP server, no stdio), beside the
 * floor extension in the same browser and page: what the extension pipeline adds on its own.
 */
export interface ExtensionRig {
  callDirect(): Promise<void>;
  floorRoundTrip(): Promise<void>;
  close(): Promise<void>;
}

export async function startExtensionRig(): Promise<ExtensionRig> {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {});
  };
  try {
    const site = await startBenchSite();
    closers.push(site.close);
    const floor = await startFloorServer();
    closers.push(floor.close);
    const link = await startFakeLinkServer();
    closers.push(link.close);
    const chromium = await launchChromium([
      { dir: join(repoRoot, 'packages', 'extension', 'dist'), config: { port: link.port, token: 'bench-direct' } },
      { dir: join(repoRoot, 'bench', 'floor-extension'), config: { port: floor.port } },
    ]);
    closers.push(chromium.close);
    await link.waitForExtension(15_000);
    await link.request({ type: 'connect', requestId: '' });
    const opened = await link.request(
      { type: 'openTab', requestId: '', url: `${site.url}/echo.html`, focus: true, waitForToolsMs: 5_000 },
      40_000,
    );
    const result = opened.type === 'response' ? (opened.result as { tab?: { id?: number }; toolsReady?: boolean }) : {};
    const tabId = result.tab?.id;
    if (tabId === undefined || !result.toolsReady)
      throw new Error(`openTab did not bring the tools: ${JSON.stringify(opened)}`);
    const floorTab = await floor.waitForTab(10_000);
    return {
      callDirect: async () => {
        const reply = await link.request({
          type: 'callTool',
          callId: '',
          tabId,
          toolName: 'echo',
          args: { text: 'x' },
          timeoutMs: 10_000,
        });
        if (reply.type !== 'toolResult' || !reply.result || reply.result.isError)
          throw new Error(`direct echo failed: ${JSON.stringify(reply)}`);
      },
      floorRoundTrip: () => floor.roundTrip(floorTab),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
