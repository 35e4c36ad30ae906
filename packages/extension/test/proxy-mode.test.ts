import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proxyConfigFrom, proxyUrlProblem } from '../src/background/proxy-mode/proxy-config';
import { refreshDelayMs, tokenExpiryMs } from '../src/background/proxy-mode/token-expiry';

const jwt = (payload: Record<string, unknown>) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('proxy mode token expiry', () => {
  it('reads exp without verifying, and refreshes a minute early (or at 80 % of a short life)', () => {
    const now = 1_700_000_000_000;
    const hour = jwt({ sub: 'u', exp: now / 1000 + 3600 });
    assert.equal(tokenExpiryMs(hour), now + 3_600_000);
    assert.equal(refreshDelayMs(hour, now), 3_540_000);
    assert.equal(refreshDelayMs(jwt({ exp: now / 1000 + 10 }), now), 8_000);
    assert.equal(refreshDelayMs(jwt({ exp: now / 1000 - 5 }), now), 0);
    assert.equal(refreshDelayMs(jwt({ sub: 'no exp' }), now), undefined);
    assert.equal(tokenExpiryMs('garbage'), undefined);
    assert.equal(tokenExpiryMs('a.%%%.c'), undefined);
  });
});

describe('proxy mode config', () => {
  it('needs a ws(s) URL and a token; the name defaults to the browser', () => {
    assert.deepEqual(proxyConfigFrom({ proxyUrl: 'wss://p.example/', proxyToken: ' t ' }, 'Chromium 156'), {
      proxyUrl: 'wss://p.example',
      proxyToken: 't',
      browserName: 'Chromium 156',
    });
    assert.equal(proxyConfigFrom({ proxyUrl: 'https://p.example', proxyToken: 't' }, 'x'), undefined);
    assert.equal(proxyConfigFrom({ proxyUrl: 'wss://p.example' }, 'x'), undefined);
    assert.equal(
      proxyConfigFrom({ proxyUrl: 'ws://127.0.0.1:1', proxyToken: 't', browserName: 'Work' }, 'x')?.browserName,
      'Work',
    );
  });

  it('never sends the token over plain ws:// to another machine (issue 13, finding 15)', () => {
    assert.equal(proxyConfigFrom({ proxyUrl: 'ws://proxy.example:8080', proxyToken: 't' }, 'x'), undefined);
    assert.equal(proxyConfigFrom({ proxyUrl: 'ws://10.0.0.5', proxyToken: 't' }, 'x'), undefined);
    assert.match(proxyUrlProblem('ws://proxy.example:8080') ?? '', /unencrypted: use wss:\/\//);
    for (const url of ['ws://localhost:9', 'ws://127.0.0.1:9', 'ws://[::1]:9', 'wss://proxy.example']) {
      assert.equal(proxyUrlProblem(url), undefined, url);
    }
  });
});
