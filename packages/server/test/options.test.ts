import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { levelOf, parseLogLevel } from '../src/log';
import { confirmModeFor, parseCliOptions } from '../src/options';
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

describe('--log-level (issue 11)', () => {
  it('takes the flag, then TABMCP_LOG_LEVEL, then TABMCP_LOG=silent, and refuses an unknown level', () => {
    assert.equal(parseCliOptions(['--log-level', 'debug']).logLevel, 'debug');
    assert.equal(parseLogLevel(undefined, {}), 'info');
    assert.equal(parseLogLevel(undefined, { TABMCP_LOG_LEVEL: 'warn' }), 'warn');
    assert.equal(parseLogLevel(undefined, { TABMCP_LOG: 'silent' }), 'silent');
    assert.equal(parseLogLevel('error', { TABMCP_LOG_LEVEL: 'debug', TABMCP_LOG: 'silent' }), 'error');
    assert.throws(() => parseCliOptions(['--log-level', 'loud']), /must be one of error, warn, info, debug, got loud/);
  });

  it('ranks events by name: failures are errors, refusals and losses warnings, protocol messages debug', () => {
    assert.equal(levelOf('link.listen-failed'), 'error');
    assert.equal(levelOf('mcp.error'), 'error');
    assert.equal(levelOf('link.refused'), 'warn');
    assert.equal(levelOf('peer.owner-gone'), 'warn');
    assert.equal(levelOf('browser.launched'), 'info');
    assert.equal(levelOf('mcp.message'), 'debug');
  });

  it('--auto-connect implies the all view unless --view is given', () => {
    assert.equal(parseCliOptions(['--auto-connect']).view, 'all');
    assert.equal(parseCliOptions(['--auto-connect', '--view', 'focused']).view, 'focused');
    assert.equal(parseCliOptions([]).view, 'focused');
  });
});

describe('--input (issue 23)', () => {
  it('takes auto, trusted or synthetic, leaves the choice to the extension without it, and refuses anything else', () => {
    assert.equal(parseCliOptions(['--input', 'synthetic']).input, 'synthetic');
    assert.equal(parseCliOptions(['--input', 'trusted']).input, 'trusted');
    assert.equal(parseCliOptions([]).input, undefined);
    assert.throws(() => parseCliOptions(['--input', 'fast']), /--input must be auto, trusted or synthetic, got fast/);
  });
});

describe('--confirm (issue 41)', () => {
  it('takes ask, allow or deny; automation (--launch, --headless) allows unless told; otherwise the extension decides', () => {
    assert.equal(parseCliOptions(['--confirm', 'ask']).confirm, 'ask');
    assert.throws(() => parseCliOptions(['--confirm', 'maybe']), /--confirm must be ask, allow or deny, got maybe/);
    assert.equal(confirmModeFor(parseCliOptions([])), undefined, "a person's own browser: its options page decides");
    assert.equal(confirmModeFor(parseCliOptions(['--launch'])), 'allow');
    assert.equal(confirmModeFor(parseCliOptions(['--headless'])), 'allow');
    assert.equal(confirmModeFor(parseCliOptions(['--launch', '--confirm', 'ask'])), 'ask');
  });
});
