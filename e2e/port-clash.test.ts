import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';

/**
 * Issue 11: another program on tabmcp's port (8765 is also AnkiConnect's) is named at once, with
 * the flag that fixes it, and no browser is launched into a link that can never work.
 */
describe('a port held by another program', () => {
  let foreign: Server;
  let port: number;
  let tabmcp: StdioMcp;

  before(async () => {
    port = await freePort();
    foreign = createServer((_request, response) => response.end('{"apiVersion":"AnkiConnect v.6"}'));
    await new Promise<void>((listening) => foreign.listen(port, '127.0.0.1', () => listening()));
    tabmcp = await startTabmcpProcess({
      args: ['--launch', '--headless', '--port', String(port)],
      clientName: 'tabmcp-port-clash',
    });
  });

  after(async () => {
    await tabmcp?.close();
    await new Promise((closed) => foreign?.close(closed));
  });

  it('connect_browser says which port, that it is not tabmcp, and the flag to use', async () => {
    const result = await tabmcp.call('connect_browser', { launch: true });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      new RegExp(`Port ${port} is used by another program \\(not tabmcp\\); restart tabmcp with --port \\d+`),
    );
    assert.doesNotMatch(textOf(result), /No browser found/);
  });

  it('launches nothing, even when asked to', async () => {
    const asked = await tabmcp.call('connect_browser', { launch: true });
    assert.match(textOf(asked), /is used by another program/);
    assert.doesNotMatch(tabmcp.stderr(), /"event":"browser.launched"/);
  });
});
