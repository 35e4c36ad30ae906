import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliOptions } from '../src/options';
import { pairingInstructions } from '../src/pair-command';

describe('tabmcp command line', () => {
  it('parses the multi-agent, HTTP and fallback options and the pair command', () => {
    const options = parseCliOptions(['--http', '8770', '--fallback-tools', '--follow-focus']);
    assert.equal(options.httpPort, 8770);
    assert.equal(options.fallbackTools, true);
    assert.equal(options.followFocus, true);
    assert.equal(options.command, 'serve');
    assert.equal(parseCliOptions(['pair']).command, 'pair');
    assert.throws(() => parseCliOptions(['--http', 'abc']), /--http must be a port number/);
    assert.throws(() => parseCliOptions(['frobnicate']), /Unknown command/);
  });

  it('pairing instructions name the port, the token and the options page', () => {
    const text = pairingInstructions(8765, 'tok-123', '/x/dist');
    assert.match(text, /Port: +8765/);
    assert.match(text, /Token: +tok-123/);
    assert.match(text, /options\.html/);
    assert.match(text, /Load unpacked.*\/x\/dist/);
  });
});
