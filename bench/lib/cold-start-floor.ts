import { join } from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';
import { chooseProfileRoot } from '../../packages/server/src/launcher/profile-root';
import { startBenchSite } from '../../test-support/bench-site';
import { launchChromium } from '../../test-support/chromium';
import { repoRoot } from '../../test-support/paths';

/**
 * The floor of a cold start, on the same machine and Chromium: spawn Chromium (tabmcp's flags, a
 * fresh profile) with the floor extension, which dials a bare WebSocket server; open the bench page
 * in a new tab; stop when the floor's content script in that page has its Port. No MCP, no server
 * logic, no tools: what any extension-based bridge pays before its first page tool could be listed.
 */
export interface ColdStartFloor {
  totalMs: number;
  /** Until the floor extension's worker said hello over its WebSocket (tabmcp's `connectedMs`). */
  linkedMs: number;
}

export async function measureColdStartFloor(): Promise<ColdStartFloor> {
  const site = await startBenchSite();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done) => wss.once('listening', done));
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const started = performance.now();
  let linkedMs = Number.NaN;
  const ready = new Promise<ColdStartFloor>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the floor extension never reported the opened tab')), 20_000);
    wss.on('connection', (socket: WebSocket) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type?: string };
        if (message.type === 'hello') {
          linkedMs = performance.now() - started;
          socket.send(JSON.stringify({ type: 'open', url: `${site.url}/echo.html` }));
        } else if (message.type === 'ready') {
          clearTimeout(timer);
          done({ totalMs: performance.now() - started, linkedMs });
        }
      });
    });
  });
  // The profile goes where tabmcp puts its own (RAM when the machine has room), so both pay alike.
  const browser = await launchChromium(
    [{ dir: join(repoRoot, 'bench', 'floor-extension'), config: { port } }],
    'about:blank',
    chooseProfileRoot().dir,
  );
  try {
    return await ready;
  } finally {
    await browser.close();
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((done) => wss.close(() => done()));
    await site.close();
  }
}
