import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type BenchSite, startBenchSite } from '../test-support/bench-site';
import { type LaunchedChromium, launchChromium } from '../test-support/chromium';
import { freePort } from '../test-support/net';
import { repoRoot } from '../test-support/paths';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';
import { waitFor } from '../test-support/wait';

/**
 * A TCP relay on loopback between the extension and tabmcp: the WebSocket runs through it, and
 * `cut()` resets both halves of every connection at once, as a network drop does, while the browser
 * and tabmcp both stay up.
 */
interface Relay {
  port: number;
  connections(): number;
  cut(): void;
  close(): Promise<void>;
}

async function startRelay(targetPort: number): Promise<Relay> {
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    for (const socket of pair) {
      socket.on('error', drop);
      socket.on('close', drop);
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    connections: () => pairs.size,
    cut: () => {
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        for (const socket of pair) socket.resetAndDestroy();
      }
    },
    close: async () => {
      for (const [inbound, outbound] of pairs) {
        inbound.destroy();
        outbound.destroy();
      }
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** Issue 7, "drop the WebSocket during calls", with both ends alive. */
describe('fault: the extension WebSocket drops with page tool calls in flight', () => {
  let site: BenchSite;
  let relay: Relay;
  let tabmcp: StdioMcp;
  let chromium: LaunchedChromium;

  const linkDowns = () => (tabmcp.stderr().match(/"event":"link\.down"/g) ?? []).length;

  /** Two calls that the page answers only after 2 s, given time to reach the page. */
  const callsInFlight = async (): Promise<Array<Promise<CallToolResult>>> => {
    const calls = [tabmcp.call('wait', { ms: 2_000 }), tabmcp.call('wait', { ms: 2_000 })];
    await new Promise((done) => setTimeout(done, 300));
    return calls;
  };

  const assertDroppedClearly = (results: CallToolResult[]) => {
    for (const result of results) {
      assert.equal(result.isError, true, textOf(result));
      assert.match(textOf(result), /disconnected|dropped/i);
      assert.doesNotMatch(textOf(result), /timed out|timeout|did not answer within/i);
    }
  };

  before(async () => {
    site = await startBenchSite();
    const token = randomBytes(24).toString('base64url');
    const linkPort = await freePort();
    relay = await startRelay(linkPort);
    tabmcp = await startTabmcpProcess({
      args: ['--headless', '--port', String(linkPort)],
      env: { TABMCP_TOKEN: token },
      clientName: 'tabmcp-e2e-socket-drop',
    });
    chromium = await launchChromium([
      { dir: join(repoRoot, 'packages', 'extension', 'dist'), config: { port: relay.port, token } },
    ]);
    await waitFor(
      async () => (await tabmcp.call('connect_browser')).isError !== true,
      20_000,
      'the extension to dial in through the relay',
    );
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/echo.html?drop` });
    assert.notEqual(opened.isError, true, textOf(opened));
    assert.ok((await tabmcp.toolNames()).includes('wait'));
  });

  after(async () => {
    await tabmcp?.close();
    await chromium?.close();
    await relay?.close();
    await site?.close();
  });

  it('answers every call in flight with a clear error and reconnects by itself', async () => {
    assert.equal(relay.connections(), 1, 'the extension link runs through the relay');
    const downsBefore = linkDowns();
    const calls = await callsInFlight();
    relay.cut();
    assertDroppedClearly(await Promise.all(calls));
    await waitFor(() => linkDowns() > downsBefore, 5_000, 'tabmcp to log the link going down');

    await waitFor(async () => (await tabmcp.toolNames()).includes('echo'), 20_000, 'the page tools to come back');
    const echoed = await tabmcp.call('echo', { text: 'after the drop' });
    assert.notEqual(echoed.isError, true, textOf(echoed));
    assert.match(textOf(echoed), /after the drop/);
  });

  it('survives a second drop in a row', async () => {
    const downsBefore = linkDowns();
    const calls = await callsInFlight();
    relay.cut();
    assertDroppedClearly(await Promise.all(calls));
    await waitFor(() => linkDowns() > downsBefore, 5_000, 'tabmcp to log the link going down');
    await waitFor(async () => (await tabmcp.toolNames()).includes('echo'), 20_000, 'the page tools to come back');
    assert.match(textOf(await tabmcp.call('echo', { text: 'twice' })), /twice/);
  });
});
