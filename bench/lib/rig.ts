import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type BenchSite, startBenchSite } from './bench-site';
import { type LaunchedChromium, launchChromium } from './chromium';
import { type FloorServer, startFloorServer } from './floor-server';
import { type BenchTabmcp, repoRoot, residentMiB, startBenchTabmcp, textOf } from './tabmcp-client';

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

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
export async function startRig(nodeArgs: string[] = []): Promise<Rig> {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {});
  };
  try {
    const site = await startBenchSite();
    closers.push(site.close);
    const floor: FloorServer = await startFloorServer();
    closers.push(floor.close);
    const linkPort = await freePort();
    const token = randomBytes(24).toString('base64url');
    const tabmcp = await startBenchTabmcp(['--headless', '--port', String(linkPort), '--token', token], nodeArgs);
    closers.push(tabmcp.close);
    const idleMiB = residentMiB(tabmcp.pid);
    const chromium: LaunchedChromium = await launchChromium([
      { dir: join(repoRoot, 'packages', 'extension', 'dist'), config: { port: linkPort, token } },
      { dir: join(repoRoot, 'bench', 'floor-extension'), config: { port: floor.port } },
    ]);
    closers.push(chromium.close);
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
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
