import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { EXTENSION_ORIGIN, MAX_MESSAGE_BYTES } from '@tabmcp/protocol';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from '../../../test-support/net';
import type { StdioMcp } from '../../../test-support/stdio-client';
import { startTabmcpProcess } from '../../../test-support/tabmcp-process';
import { waitFor } from '../../../test-support/wait';
import { authenticateListener } from '../src/link/link-auth';
import { LinkEndpoint } from '../src/link/link-endpoint';
import { WebSocketBrowserLink } from '../src/link/websocket-browser-link';

/**
 * Resolves once all the peer wrote before now has arrived: a ping sent now comes back as a pong after
 * those frames (one ordered stream), instead of sleeping on it. A closed socket has nothing more to bring.
 */
function flushed(socket: WebSocket, timeoutMs = 5_000): Promise<void> {
  if (socket.readyState !== WebSocket.OPEN) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no pong within ${timeoutMs} ms`)), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    socket.once('pong', done);
    socket.once('close', done);
    socket.ping();
  });
}

/** Issue 13, the server's side of the browser link over real sockets (findings 2, 3, 13). */
describe('security: the browser link server', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a tabmcp joining as a peer never hands its token or a request to a port squatter (finding 3)', async () => {
    const port = await freePort();
    const token = randomBytes(24).toString('base64url');
    const seen: Array<{ url: string; frames: string[]; socket: WebSocket }> = [];
    const squatter = new WebSocketServer({ host: '127.0.0.1', port });
    squatter.on('connection', (socket, request) => {
      const entry = { url: request.url ?? '', frames: [] as string[], socket };
      seen.push(entry);
      socket.on('message', (data) => {
        entry.frames.push(data.toString());
        // A made-up proof, then what a real owner would send to get the peer's requests.
        socket.send(JSON.stringify({ type: 'authChallenge', nonce: 'c'.repeat(64), proof: 'd'.repeat(64) }));
        socket.send(
          JSON.stringify({
            type: 'hello',
            protocolVersion: 1,
            extensionVersion: '9',
            browser: { name: 'x', version: '1' },
          }),
        );
      });
    });
    cleanups.push(() => new Promise((done) => squatter.close(done)));
    const tabmcp: StdioMcp = await startTabmcpProcess({
      args: ['--port', String(port), '--browser', '/nonexistent/chromium'],
      env: { TABMCP_TOKEN: token },
      clientName: 'security-peer',
    });
    cleanups.push(() => tabmcp.close());
    await waitFor(() => seen.some((entry) => entry.frames.length > 0), 10_000, 'the peer to dial the squatter');
    // An agent asks for tabs: with a proven owner this would send `connect` to it.
    await tabmcp.client.callTool({ name: 'list_tabs', arguments: {} });
    await Promise.all(seen.map(({ socket }) => flushed(socket)));
    for (const entry of seen) {
      assert.doesNotMatch(entry.url, /token/);
      for (const frame of entry.frames) {
        assert.ok(!frame.includes(token), 'the token is never sent');
        assert.equal((JSON.parse(frame) as { type: string }).type, 'authHello', `only the hello is sent: ${frame}`);
      }
    }
  });

  it('refuses one oversized reply without dropping the socket, and answers its call at once (findings 2, 13)', async () => {
    const token = randomBytes(24).toString('base64url');
    const link = new WebSocketBrowserLink({ host: '127.0.0.1', port: 0, allowedOrigins: [EXTENSION_ORIGIN], token });
    const port = await link.start();
    cleanups.push(() => link.close());
    const endpoint = new LinkEndpoint();
    link.attachEndpoint(endpoint);
    const extension = new WebSocket(`ws://127.0.0.1:${port}/`, { origin: EXTENSION_ORIGIN });
    cleanups.push(() => extension.terminate());
    await authenticateListener(extension, token);
    let closed = false;
    extension.on('close', () => {
      closed = true;
    });
    const pongs: string[] = [];
    extension.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; callId?: string };
      if (message.type === 'pong') pongs.push('pong');
      // 1.5 M × "€": 4.5 MB of UTF-8 though only 1.5 M UTF-16 units.
      if (message.type === 'callTool') {
        extension.send(
          JSON.stringify({
            type: 'toolResult',
            callId: message.callId,
            result: { content: [{ type: 'text', text: '€'.repeat(1_500_000) }] },
          }),
        );
      }
    });
    assert.ok(await endpoint.waitUntilUp(5_000));
    assert.ok('€'.repeat(1_500_000).length < MAX_MESSAGE_BYTES);
    await assert.rejects(endpoint.callTool(7, 'big', {}, 20_000), /refused: .*larger than the \d+-byte limit/);
    extension.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => pongs.length > 0, 5_000, 'a pong after the oversized frame');
    assert.equal(closed, false, 'the socket stayed up');
    assert.equal(link.isUp, true);
  });
});
