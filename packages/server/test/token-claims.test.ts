import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connectionUrlOf, impliedProxyUrl } from '../src/proxy-client/token-claims';

const jwt = (claims: Record<string, unknown>) =>
  `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature`;

/** Issue 14, defect 17: a proxy token that names its proxy needs no --proxy. */
describe('connection_url in a proxy token', () => {
  it('reads a ws(s) URL from the claim and nothing else', () => {
    assert.equal(connectionUrlOf(jwt({ connection_url: 'wss://proxy.example/' })), 'wss://proxy.example');
    assert.equal(connectionUrlOf(jwt({ connection_url: 'https://proxy.example' })), undefined);
    assert.equal(connectionUrlOf(jwt({ user_id: 'u' })), undefined);
    assert.equal(connectionUrlOf('not a jwt'), undefined);
  });

  it('takes the token from --token-file, else TABMCP_PROXY_TOKEN', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabmcp-claims-'));
    try {
      const file = join(dir, 'token');
      writeFileSync(file, `${jwt({ connection_url: 'ws://127.0.0.1:9/' })}\n`);
      assert.equal(impliedProxyUrl(file, {}), 'ws://127.0.0.1:9');
      assert.equal(
        impliedProxyUrl(undefined, { TABMCP_PROXY_TOKEN: jwt({ connection_url: 'wss://p.example' }) }),
        'wss://p.example',
      );
      assert.equal(impliedProxyUrl(undefined, {}), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
