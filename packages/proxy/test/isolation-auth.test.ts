import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import {
  attach,
  browserToken,
  connectExtension,
  connectMcp,
  rawToken,
  SECRET,
  startTestProxy,
  tokenFor,
} from '../../../test-support/proxy/fixtures';
import { TestSocket } from '../../../test-support/proxy/test-socket';
import { createTokenVerifier, type ProxyServer } from '../src/index';

function noneToken(payload: object): string {
  const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  return `${header}.${base64url.encode(JSON.stringify(payload))}.`;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('isolation between users', () => {
  let proxy: ProxyServer;
  const sockets: TestSocket[] = [];
  before(async () => {
    proxy = await startTestProxy();
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await proxy.close();
  });

  async function pair(user: string) {
    const token = await tokenFor(user);
    const extension = await connectExtension(proxy, token, `${user}'s Chrome`);
    const mcp = await connectMcp(proxy, token);
    sockets.push(extension.socket, mcp.socket);
    return { extension, mcp };
  }

  it("a user lists only their own extensions and cannot connect to anyone else's", async () => {
    const alice = await pair('alice');
    const bob = await pair('bob');
    const list = await alice.mcp.socket.request(1, 'list_extensions', {});
    assert.deepEqual(list.result, {
      extensions: [{ id: alice.extension.extensionId, name: "alice's Chrome", connected: true }],
    });
    // Same answer as for an id that does not exist: nothing about Bob's extension leaks.
    assert.deepEqual(await alice.mcp.socket.request(2, 'connect', { extension_id: bob.extension.extensionId }), {
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32000, message: 'Extension not found or not accessible' },
    });
    assert.deepEqual(await bob.extension.socket.drain(50), []);
  });

  it("no connectionId or id trick reaches another user's extension", async () => {
    const alice = await pair('alice2');
    const bob = await pair('bob2');
    await attach(alice.mcp, alice.extension.extensionId);
    const bobConnection = await attach(bob.mcp, bob.extension.extensionId);
    await alice.extension.socket.drain(30);
    await bob.extension.socket.drain(30);

    // Bob's connection id, named explicitly.
    const stolen = await alice.mcp.socket.request(10, 'getTabs', {}, { connectionId: bobConnection });
    assert.deepEqual(stolen.error, { code: -32000, message: "connectionId does not name this client's connection" });
    // Ids that look like proxy, extension or already-mapped ids.
    for (const [n, id] of [`${bobConnection}:1`, 'proxy:1', 'ext:1', 'PROXY:2', `x-${bobConnection}:3`].entries()) {
      const reply = await alice.mcp.socket.request(id, 'getTabs', {});
      assert.equal((reply.error as { code: number }).code, -32600, `id #${n} ${id}`);
    }
    // Control methods that only the proxy sends.
    for (const method of ['authenticate', 'authenticated', 'status', 'disconnected']) {
      const reply = await alice.mcp.socket.request(20, method, {});
      assert.equal((reply.error as { code: number }).code, -32601);
    }
    // A notification with Bob's connectionId is dropped, not forwarded.
    alice.mcp.socket.send({ jsonrpc: '2.0', method: 'ping', connectionId: bobConnection });
    assert.deepEqual(await bob.extension.socket.drain(80), []);
    assert.deepEqual(await alice.extension.socket.drain(0), []);
  });

  it("an extension cannot answer, or push into, another user's connection", async () => {
    const alice = await pair('alice3');
    const bob = await pair('bob3');
    await attach(alice.mcp, alice.extension.extensionId);
    await attach(bob.mcp, bob.extension.extensionId);
    await bob.extension.socket.drain(30);

    bob.mcp.socket.send({ jsonrpc: '2.0', id: 5, method: 'getTabs' });
    const forwarded = await bob.extension.socket.nextMatching((frame) => frame.method === 'getTabs');
    // Alice's (malicious) extension guesses Bob's mapped id.
    alice.extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: { forged: true } });
    assert.deepEqual(await bob.mcp.socket.drain(80), []);
    bob.extension.socket.send({ jsonrpc: '2.0', id: forwarded.id, result: { genuine: true } });
    assert.deepEqual(await bob.mcp.socket.next(), { jsonrpc: '2.0', id: 5, result: { genuine: true } });
  });

  it('requests before authentication get a clear -32000 error', async () => {
    const socket = await TestSocket.open(`${proxy.url}/mcp`);
    sockets.push(socket);
    assert.deepEqual(await socket.request(1, 'list_extensions', {}), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'Not authenticated: send mcp_handshake first' },
    });
    const missing = await socket.request(2, 'mcp_handshake', {});
    assert.equal((missing.error as { code: number }).code, -32602);
  });
});

describe('token checks', () => {
  let proxy: ProxyServer;
  const sockets: TestSocket[] = [];
  before(async () => {
    proxy = await startTestProxy();
  });
  after(async () => {
    for (const socket of sockets) socket.terminate();
    await proxy.close();
  });

  const badTokens = async (): Promise<[string, string, RegExp][]> => {
    const { privateKey } = await generateKeyPair('EdDSA');
    return [
      ['expired', await rawToken({ sub: 'u', exp: Math.floor(Date.now() / 1000) - 60 }), /Token expired/],
      [
        'wrong secret',
        await rawToken({ sub: 'u', exp: inAnHour() }, 'another-secret-of-at-least-32-bytes!!'),
        /Invalid signature/,
      ],
      ['alg none', noneToken({ sub: 'u', exp: inAnHour() }), /Algorithm none is not accepted/],
      [
        'unexpected algorithm',
        await new SignJWT({ sub: 'u', exp: inAnHour() }).setProtectedHeader({ alg: 'EdDSA' }).sign(privateKey),
        /Algorithm EdDSA is not accepted/,
      ],
      ['no exp', await rawToken({ sub: 'u' }), /Claim exp missing/],
      ['no user', await rawToken({ exp: inAnHour() }), /no user id/],
      ['garbage', 'not-a-jwt', /Malformed token/],
    ];
  };

  it('the MCP handshake refuses expired, forged, wrong-algorithm and malformed tokens, then closes', async () => {
    for (const [label, token, reason] of await badTokens()) {
      const socket = await TestSocket.open(`${proxy.url}/mcp`);
      sockets.push(socket);
      const reply = await socket.request(1, 'mcp_handshake', { accessToken: token });
      const error = reply.error as { code: number; message: string };
      assert.equal(error.code, -32000, label);
      assert.match(error.message, /^Authentication failed: /, label);
      assert.match(error.message, reason, label);
      const closed = await socket.closed;
      assert.equal(closed.code, 1008, label);
    }
  });

  it('the extension handshake closes the socket with the reason', async () => {
    for (const [label, token, reason] of await badTokens()) {
      const socket = await TestSocket.open(`${proxy.url}/extension`);
      sockets.push(socket);
      await socket.next();
      socket.send({ jsonrpc: '2.0', id: 'proxy:1', result: { name: 'Chrome', accessToken: token } });
      const closed = await socket.closed;
      assert.equal(closed.code, 1008, label);
      assert.match(closed.reason, /^Authentication failed: /, label);
      assert.match(closed.reason, reason, label);
    }
  });

  it('an extension that declines or answers without a token is closed', async () => {
    for (const reply of [
      { jsonrpc: '2.0', id: 'proxy:1', error: { code: -1, message: 'no' } },
      { jsonrpc: '2.0', id: 'proxy:1', result: { name: 'Chrome' } },
      { jsonrpc: '2.0', id: 'proxy:1', result: {} },
      'garbage',
    ]) {
      const socket = await TestSocket.open(`${proxy.url}/extension`);
      sockets.push(socket);
      await socket.next();
      socket.send(reply);
      const closed = await socket.closed;
      assert.equal(closed.code, 1008);
      assert.match(closed.reason, /^Authentication failed/);
    }
  });

  it('a token at upgrade is checked before any WebSocket exists, by header or query', async () => {
    const good = await tokenFor('upgrade-user');
    const bad = await rawToken({ sub: 'u', exp: inAnHour() }, 'another-secret-of-at-least-32-bytes!!');
    await assert.rejects(TestSocket.open(`${proxy.url}/mcp`, { authorization: `Bearer ${bad}` }), /HTTP 401/);
    await assert.rejects(TestSocket.open(`${proxy.url}/extension?access_token=${bad}`), /HTTP 401/);

    // A good header token authenticates the MCP client without mcp_handshake.
    const mcp = await TestSocket.open(`${proxy.url}/mcp`, { authorization: `Bearer ${good}` });
    sockets.push(mcp);
    assert.deepEqual(await mcp.request(1, 'list_extensions'), { jsonrpc: '2.0', id: 1, result: { extensions: [] } });
    const handshake = await mcp.request(2, 'mcp_handshake', {});
    assert.equal((handshake.result as { user_id: string }).user_id, 'upgrade-user');

    // The extension still names itself in authenticate; the token there may be omitted.
    const extension = await TestSocket.open(`${proxy.url}/extension?access_token=${await browserToken(good)}`);
    sockets.push(extension);
    await extension.next();
    extension.send({ jsonrpc: '2.0', id: 'proxy:1', result: { name: 'Chrome via query' } });
    assert.equal((await extension.next()).method, 'authenticated');
    const list = await mcp.request(3, 'list_extensions');
    assert.equal((list.result as { extensions: { name: string }[] }).extensions[0]?.name, 'Chrome via query');

    // ...but a token for someone else in authenticate is refused.
    const mixed = await TestSocket.open(`${proxy.url}/extension?access_token=${await browserToken(good)}`);
    sockets.push(mixed);
    await mixed.next();
    mixed.send({ jsonrpc: '2.0', id: 'proxy:1', result: { name: 'x', accessToken: await tokenFor('someone-else') } });
    assert.match((await mixed.closed).reason, /different user/);
  });

  it('sockets that never authenticate are closed after the handshake timeout', async () => {
    const quick = await startTestProxy({ limits: { handshakeTimeoutMs: 150 } });
    try {
      const mcp = await TestSocket.open(`${quick.url}/mcp`);
      const extension = await TestSocket.open(`${quick.url}/extension`);
      assert.deepEqual(await mcp.closed, { code: 1008, reason: 'Authentication timeout' });
      assert.deepEqual(await extension.closed, { code: 1008, reason: 'Authentication timeout' });
    } finally {
      await quick.close();
    }
  });
});

describe('asymmetric keys', () => {
  it('EdDSA and RS256 public keys and a JWKS verify their own tokens only', async () => {
    const ed = await generateKeyPair('EdDSA', { extractable: true });
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const edVerifier = await createTokenVerifier({ publicKeyPem: await exportSPKI(ed.publicKey) });
    const rsaVerifier = await createTokenVerifier({ publicKeyPem: await exportSPKI(rsa.publicKey) });
    const jwk = { ...(await exportJWK(rsa.publicKey)), kid: 'k1', alg: 'RS256' };
    const jwksVerifier = await createTokenVerifier({ jwks: { keys: [jwk] } });
    const exp = inAnHour();
    const edToken = await new SignJWT({ sub: 'ed-user', exp }).setProtectedHeader({ alg: 'EdDSA' }).sign(ed.privateKey);
    const rsToken = await new SignJWT({ user_id: 'rs-user', exp })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(rsa.privateKey);

    assert.deepEqual(await edVerifier.verify(edToken), { userId: 'ed-user', expiresAt: exp });
    assert.deepEqual(await rsaVerifier.verify(rsToken), { userId: 'rs-user', expiresAt: exp });
    assert.deepEqual(await jwksVerifier.verify(rsToken), { userId: 'rs-user', expiresAt: exp });
    await assert.rejects(edVerifier.verify(rsToken), /Algorithm RS256 is not accepted/);
    await assert.rejects(rsaVerifier.verify(edToken), /Algorithm EdDSA is not accepted/);

    // Key confusion: HS256 "signed" with the RSA public key as the secret must not pass.
    const pem = await exportSPKI(rsa.publicKey);
    const confused = await new SignJWT({ sub: 'x', exp })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(pem));
    await assert.rejects(rsaVerifier.verify(confused), /Algorithm HS256 is not accepted/);
    await assert.rejects(edVerifier.verify(noneToken({ sub: 'x', exp })), /Algorithm none/);
  });

  it('refuses short secrets and an empty configuration', async () => {
    await assert.rejects(createTokenVerifier({ secret: 'short' }), /at least 32 bytes/);
    await assert.rejects(createTokenVerifier({}), /No token key/);
    await assert.rejects(createTokenVerifier({ secret: SECRET, algorithms: ['RS256'] }), /No token key/);
  });

  it('an EdDSA-only proxy accepts EdDSA tokens end to end', async () => {
    const ed = await generateKeyPair('EdDSA', { extractable: true });
    const proxy = await startTestProxy({ auth: { publicKeyPem: await exportSPKI(ed.publicKey) } });
    try {
      const token = await new SignJWT({ sub: 'ed', exp: inAnHour() })
        .setProtectedHeader({ alg: 'EdDSA' })
        .sign(ed.privateKey);
      const mcp = await connectMcp(proxy, token);
      assert.equal(mcp.userId, 'ed');
      mcp.socket.terminate();
      const hsToken = await tokenFor('hs');
      const socket = await TestSocket.open(`${proxy.url}/mcp`);
      const reply = await socket.request(1, 'mcp_handshake', { accessToken: hsToken });
      assert.match((reply.error as { message: string }).message, /Algorithm HS256 is not accepted/);
      await socket.closed;
    } finally {
      await proxy.close();
    }
  });
});
