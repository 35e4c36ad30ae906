import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { EXTENSION_ORIGIN } from '@tabmcp/protocol';
import WebSocket from 'ws';
import { waitFor } from '../../../test-support/wait';
import type { HalfOpenBounds } from '../src/link/half-open';
import { authenticateListener } from '../src/link/link-auth';
import { WebSocketBrowserLink } from '../src/link/websocket-browser-link';

/** A raw TCP connection to the link that reports when the other side has closed it. */
interface RawDialler {
  socket: Socket;
  closed: Promise<void>;
}

function dial(port: number, first: string): Promise<RawDialler> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', () => {}); // read what comes (a close frame, a 403): only the socket's end matters
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write(first);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

/** The request line and some headers, never the blank line that ends them. */
const partialHeaders = (port: number) => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n`;

/** A complete upgrade with the extension's Origin; the dialler then stays silent and never answers a close frame. */
const fullUpgrade = (port: number) =>
  [
    'GET / HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    `Origin: ${EXTENSION_ORIGIN}`,
    '',
    '',
  ].join('\r\n');

/** Resolves when `closed` does; fails, naming `what`, if it has not within `timeoutMs` (a bound, not a speed check). */
async function within(closed: Promise<void>, timeoutMs: number, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still open after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Issue 38, "half-open upgrades are held": the local link's deadlines and cap, over real sockets on loopback. */
describe('security: half-open connections to the browser link', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function startLink(halfOpen: Partial<HalfOpenBounds>) {
    const lines: Array<{ event: string; details: Record<string, unknown> | undefined }> = [];
    const token = randomBytes(24).toString('base64url');
    const link = new WebSocketBrowserLink({
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [EXTENSION_ORIGIN],
      token,
      halfOpen,
      log: (event, details) => lines.push({ event, details }),
    });
    const port = await link.start();
    cleanups.push(() => link.close());
    return { link, port, token, lines };
  }

  it('cuts unfinished upgrades and silent upgraded sockets at their deadlines, and says so', async () => {
    const { link, port, lines } = await startLink({ upgradeMs: 300, handshakeMs: 300, closeGraceMs: 200 });
    const slow = await Promise.all(Array.from({ length: 30 }, () => dial(port, partialHeaders(port))));
    const silent = await Promise.all(Array.from({ length: 10 }, () => dial(port, fullUpgrade(port))));
    for (const dialler of [...slow, ...silent]) cleanups.push(() => dialler.socket.destroy());
    // Node's defaults held such sockets for 60 to 90 s (headers) and 30 s more (ws's wait for a close frame).
    await within(Promise.all(slow.map((dialler) => dialler.closed)).then(), 15_000, 'an unfinished upgrade');
    await within(Promise.all(silent.map((dialler) => dialler.closed)).then(), 15_000, 'a silent upgraded socket');
    await waitFor(() => link.halfOpenCount === 0, 5_000, 'no half-open connection left');
    const cuts = lines.filter((line) => line.event === 'link.halfOpenCut').map((line) => String(line.details?.reason));
    assert.ok(cuts.includes('no complete WebSocket upgrade within 300 ms'), cuts.join('; '));
    const refused = lines.filter((line) => line.event === 'link.refused').map((line) => String(line.details?.reason));
    assert.ok(refused.includes('no authentication within 300 ms'), refused.join('; '));
    // A flood gives a few lines, not one per socket.
    assert.ok(cuts.length <= 4, `${cuts.length} lines for 40 sockets`);
  });

  it('caps the connections still waiting to prove the token; the extension gets in once they are gone', async () => {
    const { link, port, token, lines } = await startLink({ upgradeMs: 60_000, handshakeMs: 60_000, maxHalfOpen: 4 });
    const held = await Promise.all(Array.from({ length: 4 }, () => dial(port, partialHeaders(port))));
    for (const dialler of held) cleanups.push(() => dialler.socket.destroy());
    await waitFor(() => link.halfOpenCount === 4, 5_000, 'four half-open connections');
    const over = await Promise.all(Array.from({ length: 3 }, () => dial(port, partialHeaders(port))));
    for (const dialler of over) cleanups.push(() => dialler.socket.destroy());
    await within(Promise.all(over.map((dialler) => dialler.closed)).then(), 10_000, 'a connection over the cap');
    assert.equal(link.halfOpenCount, 4, 'the four within the cap are still held (their deadline is a minute)');
    const capped = lines.find((line) => line.event === 'link.halfOpenCut');
    assert.match(String(capped?.details?.reason), /4 connections are already waiting to prove the pairing token/);

    for (const dialler of held) dialler.socket.destroy();
    await waitFor(() => link.halfOpenCount === 0, 5_000, 'the held connections to be released');
    const extension = new WebSocket(`ws://127.0.0.1:${port}/`, { origin: EXTENSION_ORIGIN });
    cleanups.push(() => extension.terminate());
    await authenticateListener(extension, token);
    await waitFor(() => link.isUp, 5_000, 'the extension link up');
    assert.equal(link.halfOpenCount, 0, 'a proven link is not half-open');
  });
});
