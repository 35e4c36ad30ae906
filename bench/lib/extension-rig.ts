import { startBenchSite } from '../../test-support/bench-site';
import { startFakeLinkServer } from './fake-link-server';
import { startFloorServer } from './floor-server';
import { assemble, launchWithFloor } from './parts';

/**
 * tabmcp's real extension driven straight over its WebSocket (no MCP server, no stdio), beside the
 * floor extension in the same browser and page: what the extension pipeline adds on its own.
 */
export interface ExtensionRig {
  callDirect(): Promise<void>;
  floorRoundTrip(): Promise<void>;
  close(): Promise<void>;
}

export function startExtensionRig(): Promise<ExtensionRig> {
  return assemble(async (parts) => {
    const site = parts.add(await startBenchSite());
    const floor = parts.add(await startFloorServer());
    const token = 'bench-direct';
    const link = parts.add(await startFakeLinkServer(token));
    parts.add(await launchWithFloor({ port: link.port, token }, floor.port));
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
      close: parts.close,
    };
  });
}
