import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { AuthChallenge, EXTENSION_ORIGIN, linkProof, newNonce, parseMessage } from '@tabmcp/protocol';
import WebSocket, { WebSocketServer } from 'ws';
import { BrowserLink } from '../packages/extension/src/background/browser-link';
import { PEER_PATH, WebSocketBrowserLink } from '../packages/server/src/link/websocket-browser-link';
import { waitFor } from '../test-support/wait';

// Node 20 has no global WebSocket; `ws` has the same onopen/onmessage/onclose face the extension uses.
Object.assign(globalThis, { WebSocket });

/**
 * Issue 26, medium: a local process with no token listens on the port the browser dials and relays
 * the handshake to a tabmcp that holds the same pairing token on another port. Before the proofs
 * named the endpoint, that tabmcp signed the relayed hello (an oracle), the extension accepted the
 * relay, and the extension's proof made the relay an authenticated peer of the real tabmcp.
 */
describe('security: the link handshake cannot be relayed to another port (issue 26)', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function realTabmcp(token: string) {
    const refusals: string[] = [];
    const link = new WebSocketBrowserLink({
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [EXTENSION_ORIGIN],
      token,
      log: (event, fields) => {
        if (event === 'link.refused') refusals.push(String(fields?.reason));
      },
    });
    const port = await link.start();
    cleanups.push(() => link.close());
    return { link, port, refusals };
  }

  /** The attacker: relays every frame between whoever dials it and `target`, blindly, both ways. */
  async function relay(target: string, origin?: string) {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((ready) => wss.once('listening', () => ready()));
    const upstreams: WebSocket[] = [];
    wss.on('connection', (victim) => {
      const upstream = new WebSocket(target, origin ? { origin } : {});
      upstreams.push(upstream);
      const early: string[] = [];
      victim.on('message', (data) => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(data.toString());
        else early.push(data.toString());
      });
      upstream.on('open', () => {
        for (const text of early.splice(0)) upstream.send(text);
      });
      upstream.on('message', (data) => victim.send(data.toString()));
      upstream.on('close', () => victim.close());
      victim.on('close', () => upstream.close());
      upstream.on('error', () => {});
    });
    cleanups.push(
      () =>
        new Promise((done) => {
          for (const client of wss.clients) client.terminate();
          wss.close(done);
        }),
    );
    return { port: (wss.address() as AddressInfo).port, upstreams };
  }

  for (const [what, path, origin] of [
    ['as the browser', '/', EXTENSION_ORIGIN],
    ['as a peer', PEER_PATH, undefined],
  ] as const) {
    it(`the extension refuses a relay to a tabmcp on another port, which never accepts it ${what}`, async () => {
      const token = randomBytes(24).toString('base64url');
      const tabmcp = await realTabmcp(token);
      const attacker = await relay(`ws://127.0.0.1:${tabmcp.port}${path}`, origin);
      const events: string[] = [];
      const extension = new BrowserLink(
        async () => ({ url: `ws://127.0.0.1:${attacker.port}/`, token }),
        (event) => events.push(event),
      );
      cleanups.push(() => extension.stop());
      extension.start();
      await waitFor(
        () => extension.isOpen || events.includes('link.unauthenticated'),
        5_000,
        'the extension to accept or refuse the relay',
      );
      assert.equal(extension.isOpen, false, 'the extension accepted a relay that does not hold the token');
      assert.ok(events.includes('link.unauthenticated'));
      assert.equal(tabmcp.link.isUp, false);
      assert.equal(tabmcp.link.peerCount, 0);
    });
  }

  it('a tabmcp refuses a proof made for another port, and signs only for its own', async () => {
    const token = randomBytes(24).toString('base64url');
    const tabmcp = await realTabmcp(token);
    const otherPort = tabmcp.port === 65_535 ? 65_534 : tabmcp.port + 1;
    const socket = new WebSocket(`ws://127.0.0.1:${tabmcp.port}/`, { origin: EXTENSION_ORIGIN });
    cleanups.push(() => socket.terminate());
    const clientNonce = newNonce();
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    const challengeText = await new Promise<string>((done, fail) => {
      socket.once('message', (data) => done(data.toString()));
      socket.once('open', () => socket.send(JSON.stringify({ type: 'authHello', nonce: clientNonce })));
      socket.once('error', fail);
    });
    const challenge = parseMessage(AuthChallenge, challengeText, 'challenge');
    assert.ok(challenge.ok);
    const serverNonce = challenge.value.nonce;
    assert.equal(challenge.value.proof, await linkProof(token, 'server', tabmcp.port, clientNonce, serverNonce));
    assert.notEqual(challenge.value.proof, await linkProof(token, 'server', otherPort, clientNonce, serverNonce));
    const proof = await linkProof(token, 'client', otherPort, clientNonce, serverNonce);
    socket.send(JSON.stringify({ type: 'authProof', proof }));
    assert.equal(await closed, 4001);
    assert.deepEqual(tabmcp.refusals, ['wrong pairing token']);
    assert.equal(tabmcp.link.isUp, false);
  });
});
