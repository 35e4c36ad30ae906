// Issue 39: one user's token cannot take every connection slot; each refusal names the cap it hit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  browserToken,
  connectExtension,
  connectMcp,
  startTestProxy,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import type { ProxyServer } from '../src/index';

describe('per-user connection caps', () => {
  let proxy: ProxyServer;
  const sockets: TestSocket[] = [];

  before(async () => {
    proxy = await startTestProxy({ limits: { maxConnections: 10, maxConnectionsPerUser: 4, maxBrowsersPerUser: 2 } });
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await proxy?.close();
  });

  it("one user's sockets stop at its caps, each refusal says which, and another user still gets in", async () => {
    const flooder = await tokenFor('flooder');
    for (const key of ['flooder-browser-one', 'flooder-browser-two']) {
      sockets.push((await connectExtension(proxy, flooder, 'Chrome', key)).socket);
    }
    // A third browser: closed with 1013 and the browsers' cap.
    const third = await TestSocket.open(`${proxy.url}/extension`);
    sockets.push(third);
    const request = await third.next();
    third.send({
      jsonrpc: '2.0',
      id: request.id,
      result: { name: 'Chrome', accessToken: await browserToken(flooder) },
    });
    const closed = await third.closed;
    assert.equal(closed.code, 1013);
    assert.match(closed.reason, /maxBrowsersPerUser \(2\)/);

    // A browser that reconnects while its old socket lingers replaces it: no new slot, not refused.
    sockets.push((await connectExtension(proxy, flooder, 'Chrome', 'flooder-browser-one')).socket);

    for (let i = 0; i < 2; i++) sockets.push((await connectMcp(proxy, flooder)).socket);
    // The fifth socket of the user: refused at the handshake (error, then close 1013) ...
    const fifth = await TestSocket.open(`${proxy.url}/mcp`);
    sockets.push(fifth);
    const refused = await fifth.request(1, 'mcp_handshake', { accessToken: flooder });
    assert.match((refused.error as { message: string }).message, /maxConnectionsPerUser \(4\)/);
    assert.equal((await fifth.closed).code, 1013);
    // ... or at the upgrade, when the token comes with it.
    await assert.rejects(TestSocket.open(`${proxy.url}/mcp`, { authorization: `Bearer ${flooder}` }), /HTTP 429/);

    const other = await tokenFor('other-user');
    sockets.push((await connectExtension(proxy, other, 'Chrome', 'other-browser-key')).socket);
    sockets.push((await connectMcp(proxy, other)).socket);
  });
});
