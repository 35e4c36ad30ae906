import { randomBytes } from 'node:crypto';
import { type BenchSite, startBenchSite } from '../../test-support/bench-site';
import { freePort } from '../../test-support/net';
import { textOf } from '../../test-support/results';
import { startFloorServer } from './floor-server';
import { assemble, launchWithFloor } from './parts';
import { type BenchTabmcp, residentMiB, startBenchTabmcp } from './tabmcp-client';

/**
 * One Chromium with both tabmcp's extension and the floor extension, one bench page open and
 * focused in tabmcp: the same browser, tab and page serve the product path and its floor.
 */
export interface Rig {
  site: BenchSite;
  pageUrl: string;
  tabmcp: BenchTabmcp;
  /** Resident memory of tabmcp started and idle, before any browser connected (MiB). */
  idleMiB: number;
  callEcho(): Promise<void>;
  floorRoundTrip(): Promise<void>;
  floorPageSdkRoundTrip(): Promise<void>;
  workerEcho(): Promise<void>;
  close(): Promise<void>;
}

/** `nodeArgs` go to the tabmcp process, e.g. `--cpu-prof` to see where its share of a call goes. */
export function startRig(nodeArgs: string[] = []): Promise<Rig> {
  return assemble(async (parts) => {
    const site = parts.add(await startBenchSite());
    const floor = parts.add(await startFloorServer());
    const linkPort = await freePort();
    const token = randomBytes(24).toString('base64url');
    const tabmcp = parts.add(
      await startBenchTabmcp(['--headless', '--port', String(linkPort)], nodeArgs, { TABMCP_TOKEN: token }),
    );
    const idleMiB = residentMiB(tabmcp.pid);
    parts.add(await launchWithFloor({ port: linkPort, token }, floor.port));
    let connected = await tabmcp.call('connect_browser', {});
    for (let attempt = 0; attempt < 5 && connected.isError; attempt++) {
      connected = await tabmcp.call('connect_browser', {});
    }
    if (connected.isError) throw new Error(`connect_browser failed: ${textOf(connected)}`);
    const pageUrl = `${site.url}/echo.html`;
    const opened = await tabmcp.call('open_tab', { url: pageUrl });
    if (opened.isError) throw new Error(`open_tab failed: ${textOf(opened)}`);
    const names = await tabmcp.toolNames();
    if (!names.includes('echo')) throw new Error(`the bench page's echo tool is not listed: ${names.join(', ')}`);
    const floorTab = await floor.waitForTab(10_000);
    return {
      site,
      pageUrl,
      tabmcp,
      idleMiB,
      callEcho: async () => {
        const result = await tabmcp.call('echo', { text: 'x' }).catch((error: unknown) => {
          throw new Error(`echo failed: ${String(error)}; tabmcp's last log lines:\n${tabmcp.stderr().slice(-2000)}`);
        });
        if (result.isError) throw new Error(`echo failed: ${textOf(result)}`);
      },
      floorRoundTrip: () => floor.roundTrip(floorTab),
      floorPageSdkRoundTrip: () => floor.pageSdkRoundTrip(floorTab),
      workerEcho: () => floor.echo(),
      close: parts.close,
    };
  });
}
