// The extension's link queues what it sends while the server is away. Events are still true for the
// next server; replies are not: the server that asked is gone, and a new one never asked.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { AuthHello, AuthProof, linkProof, newNonce, parseMessage, sameProof } from '@tabmcp/protocol';
import { WebSocket, WebSocketServer } from 'ws';
import { waitFor } from '../../../test-support/wait';
import { BrowserLink } from '../src/background/browser-link';

const TOKEN = 'browser-link-replay-token';

// Node 20 has no global WebSocket; `ws` has the same onopen/onmessage/onclose face.
Object.assign(globalThis, { WebSocket });

/** A listener that passes the link's challenge and response and records every frame after it. */
async function listener(port = 0): Promise<{ port: number; frames: string[]; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((ready) => wss.once('listening', () => ready()));
  const frames: string[] = [];
  wss.on('connection', (socket) => {
    let clientNonce = '';
    let serverNonce = '';
    let proven = false;
    socket.on('message', async (data) => {
      const text = data.toString();
      if (!clientNonce) {
        const hello = parseMessage(AuthHello, text, 'hello');
        assert.ok(hello.ok);
        clientNonce = hello.value.nonce;
        serverNonce = newNonce();
        const proof = await linkProof(TOKEN, 'server', (wss.address() as AddressInfo).port, clientNonce, serverNonce);
        socket.send(JSON.stringify({ type: 'authChallenge', nonce: serverNonce, proof }));
        return;
      }
      if (!proven) {
        // Marked before the await: the frames after the proof arrive while it is being checked.
        proven = true;
        const proof = parseMessage(AuthProof, text, 'proof');
        assert.ok(
          proof.ok &&
            sameProof(
              proof.value.proof,
              await linkProof(TOKEN, 'client', (wss.address() as AddressInfo).port, clientNonce, serverNonce),
            ),
        );
        return;
      }
      frames.push(text);
    });
  });
  return {
    port: (wss.address() as AddressInfo).port,
    frames,
    close: () =>
      new Promise<void>((done) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => done());
      }),
  };
}

const until = (condition: () => boolean, what: string) => waitFor(condition, 5_000, what);

describe('browser link queue across a server restart', () => {
  const links: BrowserLink[] = [];
  after(() => {
    for (const link of links) link.stop();
  });

  it('sends queued events to the next server, never the previous server replies', async () => {
    const first = await listener();
    const port = first.port;
    const states: string[] = [];
    const link = new BrowserLink(
      async () => ({ url: `ws://127.0.0.1:${port}/`, token: TOKEN }),
      () => {},
    );
    links.push(link);
    link.onstatechange = (state) => states.push(state);
    link.start();
    await until(() => link.isOpen, 'the first server');
    await first.close();
    await until(() => states.at(-1) === 'closed', 'the link to notice');

    link.send({ type: 'toolResult', callId: 'call-7', result: { content: [{ type: 'text', text: 'late' }] } });
    link.send({ type: 'response', requestId: 'req-3', result: { closed: true, tabId: 4 } });
    // A hub change is numbered for the server that watched it: the next one asks afresh.
    link.send({ type: 'hubToolsChanged', revision: 3, changed: [], removed: ['website_tool_a_tab1_x'] });
    link.send({ type: 'tabClosed', tabId: 4 });

    const second = await listener(port);
    try {
      await until(() => second.frames.some((frame) => frame.includes('tabClosed')), 'the queued event');
      const types = second.frames.map((frame) => (JSON.parse(frame) as { type: string }).type);
      assert.deepEqual(
        types.filter((type) => type !== 'ping'),
        ['tabClosed'],
        'only the tab event crosses to the new server',
      );
    } finally {
      link.stop();
      await second.close();
    }
  });
});
