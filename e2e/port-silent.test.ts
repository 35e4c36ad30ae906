import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';

/**
 * Issue 28: a program that accepts connections on tabmcp's port and never answers made
 * connect_browser hang for minutes with no log line. Now the wait is bounded: connect_browser
 * names the port and the flag that fixes it, and the log says what happened.
 */
describe('a port held by a program that accepts and never answers', () => {
  let silent: Server;
  const held: Socket[] = [];
  let port: number;
  let tabmcp: StdioMcp;

  before(async () => {
    port = await freePort();
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((listening) => silent.listen(port, '127.0.0.1', () => listening()));
    tabmcp = await startTabmcpProcess({
      args: ['--launch', '--headless', '--port', String(port)],
      clientName: 'tabmcp-port-silent',
    });
  });

  after(async () => {
    await tabmcp?.close();
    for (const socket of held) socket.destroy();
    await new Promise((closed) => silent?.close(closed));
  });

  it('connect_browser answers with the cause and the flag to use, and launches nothing', async () => {
    const result = await tabmcp.call('connect_browser');
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      new RegExp(`Port ${port} is used by another program \\(not tabmcp\\); restart tabmcp with --port \\d+`),
    );
    assert.match(tabmcp.stderr(), /"event":"peer.join-failed".*did not answer within/);
    assert.doesNotMatch(tabmcp.stderr(), /"event":"browser.launched"/);
  });
});
