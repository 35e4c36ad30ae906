import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ORIGIN } from '@tabmcp/protocol';
import { type Browser, chromium } from 'playwright-core';
import WebSocket from 'ws';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { authenticateListener } from '../packages/server/src/link/link-auth';
import { WebSocketBrowserLink } from '../packages/server/src/link/websocket-browser-link';
import { waitFor } from '../test-support/wait';

const TOKEN = 'test-pairing-token-0123456789';

function attempt(url: string, origin: string): Promise<'open' | number> {
  return new Promise((done) => {
    const socket = new WebSocket(url, { origin });
    socket.on('open', () => {
      socket.close();
      done('open');
    });
    socket.on('unexpected-response', (_request, response) => done(response.statusCode ?? 0));
    socket.on('error', () => done(0));
  });
}

describe('the browser link refuses everyone but the paired extension', () => {
  let link: WebSocketBrowserLink;
  let port: number;
  let site: ExampleServer;
  let browser: Browser;

  before(async () => {
    link = new WebSocketBrowserLink({ host: '127.0.0.1', port: 0, allowedOrigins: [EXTENSION_ORIGIN], token: TOKEN });
    port = await link.start();
    site = await startExampleServer();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: chromiumArgs(),
    });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await link?.close();
  });

  it("a web page's new WebSocket('ws://127.0.0.1:<port>') is refused, even with the token", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.url}/shop/`);
    const outcome = await page.evaluate(
      (url) =>
        new Promise<string>((done) => {
          const socket = new WebSocket(url);
          socket.onopen = () => done('open');
          socket.onclose = (event) => done(`closed ${event.code}`);
        }),
      `ws://127.0.0.1:${port}/?token=${TOKEN}`,
    );
    assert.equal(outcome, 'closed 1006');
    assert.equal(link.isUp, false);
  });

  it('checks Origin at the upgrade and the pairing token by challenge and response', async () => {
    assert.equal(await attempt(`ws://127.0.0.1:${port}/`, 'http://evil.example'), 403);
    assert.equal(await attempt(`ws://127.0.0.1:${port}/`, EXTENSION_ORIGIN), 'open');
    const wrong = new WebSocket(`ws://127.0.0.1:${port}/`, { origin: EXTENSION_ORIGIN });
    await assert.rejects(authenticateListener(wrong, 'wrong'), /pairing token/);
    assert.equal(link.isUp, false);
    const right = new WebSocket(`ws://127.0.0.1:${port}/`, { origin: EXTENSION_ORIGIN });
    await authenticateListener(right, TOKEN);
    // Our proof is sent; the link is up once the server has checked it.
    await waitFor(() => link.isUp, 5_000, 'the link to be up');
    right.close();
  });
});
