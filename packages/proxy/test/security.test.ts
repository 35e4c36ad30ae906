import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connectExtension, connectMcp, SECRET, startTestProxy, tokenFor } from '../../../test-support/proxy/fixtures';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import { type ProxyServer, signToken } from '../src/index';

// Issue 13, the hostile remote user: findings 9 (capacity), 10 (roles) and 15 (TLS), over real sockets.

const proxies: ProxyServer[] = [];
const sockets: TestSocket[] = [];
after(async () => {
  for (const socket of sockets) socket.terminate();
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

async function proxyWith(overrides: Parameters<typeof startTestProxy>[0] = {}): Promise<ProxyServer> {
  const proxy = await startTestProxy(overrides);
  proxies.push(proxy);
  return proxy;
}

async function open(url: string, localAddress?: string): Promise<TestSocket> {
  const socket = await TestSocket.open(url, undefined, localAddress ? { localAddress } : {});
  sockets.push(socket);
  return socket;
}

describe('finding 9: unauthenticated sockets cannot starve the proxy', () => {
  it('idle anonymous sockets from one address do not lock out a real browser from another', async () => {
    const proxy = await proxyWith({ limits: { maxConnections: 8, maxUnauthenticatedPerSource: 4 } });
    const refused: string[] = [];
    for (let i = 0; i < 12; i++) {
      await open(`${proxy.url}/mcp`, '127.0.0.2').catch((error: Error) => refused.push(error.message));
    }
    assert.equal(refused.length, 8, 'past 4 idle sockets the attacking address is refused');
    assert.deepEqual([...new Set(refused)], ['HTTP 429']);
    // The real browser and agent, from 127.0.0.1, still get in and authenticate.
    const token = await tokenFor('victim');
    const extension = await connectExtension({ url: proxy.url }, token);
    sockets.push(extension.socket);
    const mcp = await connectMcp({ url: proxy.url }, token);
    sockets.push(mcp.socket);
    const list = await mcp.socket.request(1, 'list_extensions', {});
    assert.equal((list.result as { extensions: unknown[] }).extensions.length, 1);
  });

  it('a frame of more than a few KB before authentication closes the socket unparsed (1009)', async () => {
    const proxy = await proxyWith();
    const socket = await open(`${proxy.url}/mcp`);
    socket.send(`{"jsonrpc":"2.0","id":1,"method":"mcp_handshake","params":{"pad":"${'x'.repeat(100_000)}"}}`);
    const closed = await socket.closed;
    assert.equal(closed.code, 1009);
  });

  it('an authenticated client still sends frames up to maxMessageBytes', async () => {
    const proxy = await proxyWith();
    const mcp = await connectMcp(proxy, await tokenFor('big'));
    sockets.push(mcp.socket);
    const reply = await mcp.socket.request(2, 'list_extensions', { pad: 'x'.repeat(100_000) });
    assert.deepEqual(reply.result, { extensions: [] });
  });

  it('a flood past the rate limit is answered without parsing big frames', async () => {
    const proxy = await proxyWith({ limits: { rateBurst: 2, ratePerSecond: 1 } });
    const mcp = await connectMcp(proxy, await tokenFor('flood'));
    sockets.push(mcp.socket);
    await mcp.socket.request(3, 'list_extensions', {});
    const small = await mcp.socket.request(4, 'list_extensions', {});
    assert.deepEqual(small.error, { code: -32000, message: 'Rate limit exceeded' });
    const big = await mcp.socket.request(5, 'list_extensions', { pad: 'x'.repeat(100_000) });
    assert.deepEqual(big.error, { code: -32000, message: 'Rate limit exceeded' }, 'a big frame is answered too');
  });
});

describe('finding 10: token roles are checked per endpoint', () => {
  it('a client token cannot register a browser', async () => {
    const proxy = await proxyWith();
    const clientToken = await signToken({ secret: SECRET, userId: 'alice', role: 'client' });
    const socket = await open(`${proxy.url}/extension`);
    const request = await socket.next();
    socket.send({ jsonrpc: '2.0', id: request.id, result: { name: 'Chrome 141', accessToken: clientToken } });
    const closed = await socket.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /role client/);
  });

  it('an extension token cannot act as an MCP client, at handshake or at upgrade', async () => {
    const proxy = await proxyWith();
    const extensionToken = await signToken({ secret: SECRET, userId: 'alice', role: 'extension' });
    const socket = await open(`${proxy.url}/mcp`);
    const reply = await socket.request(1, 'mcp_handshake', { accessToken: extensionToken });
    assert.match((reply.error as { message: string }).message, /role extension/);
    await assert.rejects(
      TestSocket.open(`${proxy.url}/mcp`, { authorization: `Bearer ${extensionToken}` }),
      /HTTP 401/,
    );
  });

  it('tokens with the right role work; --require-role refuses tokens without one', async () => {
    const proxy = await proxyWith({ auth: { secret: SECRET, requireRole: true } });
    const extension = await connectExtension(
      proxy,
      await signToken({ secret: SECRET, userId: 'bob', role: 'extension' }),
    );
    sockets.push(extension.socket);
    const mcp = await connectMcp(proxy, await signToken({ secret: SECRET, userId: 'bob', role: 'client' }));
    sockets.push(mcp.socket);
    const socket = await open(`${proxy.url}/mcp`);
    const reply = await socket.request(1, 'mcp_handshake', { accessToken: await tokenFor('bob') });
    assert.match((reply.error as { message: string }).message, /no role claim/);
  });
});

describe('issue 26, the impostor browser: only a browser-role token registers a browser', () => {
  it('with the real browser offline, a role-less token of the same user cannot stand in for it', async () => {
    const proxy = await proxyWith();
    // The attacker holds a role-less token of the victim's user (an agent's) and registers under the real name.
    const roleless = await tokenFor('victim-impostor');
    const socket = await open(`${proxy.url}/extension`);
    const request = await socket.next();
    socket.send({ jsonrpc: '2.0', id: request.id, result: { name: 'Chrome 141', accessToken: roleless } });
    const closed = await socket.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /--role extension/);
    // Presenting it at the upgrade gets no further.
    await assert.rejects(
      TestSocket.open(`${proxy.url}/extension?access_token=${encodeURIComponent(roleless)}`),
      /HTTP 401/,
    );
    // The agent sees no browser to connect to, so nothing an impostor says reaches it.
    const agent = await connectMcp(proxy, roleless);
    sockets.push(agent.socket);
    const listed = await agent.socket.request(1, 'list_extensions', {});
    assert.deepEqual(listed.result, { extensions: [] });
    // The real browser, with its browser-role token, is listed and reachable.
    const browser = await connectExtension(
      proxy,
      await signToken({ secret: SECRET, userId: 'victim-impostor', role: 'extension' }),
    );
    sockets.push(browser.socket);
    const relisted = await agent.socket.request(2, 'list_extensions', {});
    assert.deepEqual(relisted.result, {
      extensions: [{ id: browser.extensionId, name: 'Chrome 141', connected: true }],
    });
  });
});

describe('finding 15: no plain ws:// on a non-loopback host by accident', () => {
  it('refuses 0.0.0.0 without TLS, and says which flag allows it', async () => {
    await assert.rejects(startTestProxy({ host: '0.0.0.0' }), /without TLS.*--allow-insecure-host/s);
  });

  it('starts on 0.0.0.0 with allowInsecureHost, and on any loopback address without it', async () => {
    const open = await proxyWith({ host: '0.0.0.0', allowInsecureHost: true });
    assert.equal(open.host, '0.0.0.0');
    const loopback = await proxyWith({ host: '127.0.0.2' });
    assert.equal(loopback.host, '127.0.0.2');
  });
});
