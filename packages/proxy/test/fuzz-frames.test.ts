// Fuzz over real sockets (issue 13): random frames, sizes counted in UTF-8 around the pre-authentication cap,
// before and after authentication. The proxy must answer or close with a policy/size code, never crash, and keep
// serving a real client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fuzzRuns } from '../../../test-support/fuzz-runs';
import {
  attach,
  autoAnswer,
  connectExtension,
  connectMcp,
  startTestProxy,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

const CAP = 2_048;
const SEED = Number(process.env.FUZZ_SEED ?? 13);
/** TABMCP_FUZZ_RUNS counts frames (100,000 in `npm run fuzz`); a socket takes this many before the next opens. */
const FRAMES_PER_ROUND = 10;
const rounds = Math.max(1, Math.ceil(fuzzRuns(300) / FRAMES_PER_ROUND));

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PIECES = ['€', '𝄞', 'a', '"', '\\', '\u0000', '\u202e', '{', '}', ':', ','];
const PIECE_BYTES = new Map(PIECES.map((piece) => [piece, Buffer.byteLength(piece)]));
const METHODS = ['mcp_handshake', 'list_extensions', 'connect', 'disconnect', 'getTabs', 'authenticate', 'status'];

function randomFrame(random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  // Sizes cluster around the cap in UTF-8 bytes, where counting UTF-16 units would be wrong by up to 3×.
  const targetBytes = Math.floor(CAP * (0.3 + random() * 1.4));
  // Counted piece by piece: measuring the whole pad after each piece made the harness quadratic.
  const pieces: string[] = [];
  for (let bytes = 0; bytes < targetBytes; ) {
    const piece = pick(PIECES);
    pieces.push(piece);
    bytes += PIECE_BYTES.get(piece) ?? 1;
  }
  const pad = pieces.join('');
  const kind = random();
  if (kind < 0.2) return pad; // not JSON
  const id = pick([1, 'x', null, 'proxy:1', 'conn-1:1', 2.5, { a: 1 }]);
  const frame = { jsonrpc: random() < 0.9 ? '2.0' : '1.0', id, method: pick(METHODS), params: { pad } };
  return kind < 0.3 ? `[${JSON.stringify(frame)}]` : JSON.stringify(frame);
}

describe('proxy frame fuzz', () => {
  let proxy: ProxyServer;
  before(async () => {
    proxy = await startTestProxy({
      limits: { maxUnauthenticatedMessageBytes: CAP, maxUnauthenticatedPerSource: 1_000, handshakeTimeoutMs: 2_000 },
    });
  });
  after(() => proxy.close());

  it('anonymous and authenticated sockets: closed only with 1008/1009, oversize anonymous frames always 1009', async () => {
    const random = prng(SEED);
    const token = await tokenFor('fuzz');
    for (let round = 0; round < rounds; round++) {
      const endpoint = random() < 0.5 ? '/mcp' : '/extension';
      const socket = await TestSocket.open(`${proxy.url}${endpoint}`);
      const anonymous = endpoint === '/mcp' && random() < 0.5;
      if (endpoint === '/mcp' && !anonymous) await socket.request(1, 'mcp_handshake', { accessToken: token });
      let oversize = false;
      for (let i = 0; i < FRAMES_PER_ROUND; i++) {
        const frame = randomFrame(random);
        oversize ||= Buffer.byteLength(frame) > CAP;
        socket.send(frame);
      }
      // Frames are handled in order: once a last request is answered, every frame before it was handled.
      socket.send({ jsonrpc: '2.0', id: 'sentinel', method: 'ping' });
      const answered = socket
        .nextMatching((frame) => frame.id === 'sentinel', 10_000)
        .then(
          () => undefined,
          () => undefined,
        );
      const outcome = await Promise.race([socket.closed, answered]);
      if (outcome) assert.ok([1008, 1009].includes(outcome.code), `round ${round}: closed with ${outcome.code}`);
      // An anonymous /mcp socket is never closed for bad frames, only for size: over the cap it must be.
      if (anonymous && oversize) assert.equal(outcome?.code, 1009, `round ${round}: oversize before authentication`);
      socket.terminate();
    }
    // Still serving: a real browser and agent pair up and a call goes through.
    const extension = await connectExtension(proxy, token);
    autoAnswer(extension);
    const mcp = await connectMcp(proxy, token);
    await attach(mcp, extension.extensionId);
    assert.deepEqual((await mcp.socket.request(7, 'ping')).result, { echo: 'ping', params: null });
    const health = (await (await fetch(`${proxy.url.replace('ws', 'http')}/health`)).json()) as { status: string };
    assert.equal(health.status, 'ok');
    extension.socket.terminate();
    mcp.socket.terminate();
  });
});
