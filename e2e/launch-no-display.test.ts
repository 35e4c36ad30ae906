import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../test-support/net';
import { serverBin } from '../test-support/paths';
import { textOf } from '../test-support/results';
import { startStdioMcp } from '../test-support/stdio-client';

/** This process's environment without a display, as over SSH, in a container or in CI. */
function withoutDisplay(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && name !== 'DISPLAY' && name !== 'WAYLAND_DISPLAY') env[name] = value;
  }
  return env;
}

/**
 * Issue 28, "no display": the README's `tabmcp --launch` (no --headless) on Linux with neither
 * DISPLAY nor WAYLAND_DISPLAY runs Chromium headless and says so; a browser that exits at once is
 * reported by connect_browser with its own exit code, its last output and a log that is kept.
 */
describe('--launch with no display', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tabmcp-no-display-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('launches Chromium headless, says so in the log, and connects', async () => {
    const tabmcp = await startStdioMcp({
      args: [serverBin, '--launch', '--port', String(await freePort())],
      env: { ...withoutDisplay(), TABMCP_HOME: join(scratch, 'home-ok') },
      clientName: 'tabmcp-no-display',
    });
    try {
      const connected = await tabmcp.call('connect_browser');
      assert.notEqual(connected.isError, true, `${textOf(connected)}\n${tabmcp.stderr()}`);
      assert.match(tabmcp.stderr(), /"event":"browser.headless".*no display/);
      assert.match(tabmcp.stderr(), /"event":"browser.launched".*"headless":true/);
      // The browser's own name and full version (client hints), not a constant nor the reduced UA's "156.0.0.0".
      const { browser } = JSON.parse(textOf(connected)) as { browser: { name: string; version: string } };
      const installed = /Chromium ([\d.]+)/.exec(execFileSync('chromium', ['--version'], { encoding: 'utf8' }))?.[1];
      assert.deepEqual(browser, { name: 'Chromium', version: installed });
    } finally {
      await tabmcp.close();
    }
  });

  it('a browser that exits at once is reported with its code, its last output and a kept log', async () => {
    const browser = join(scratch, 'dies-at-once.sh');
    writeFileSync(browser, "#!/bin/sh\necho 'Missing X server or $DISPLAY (stand-in)' >&2\nexit 3\n");
    chmodSync(browser, 0o755);
    const home = join(scratch, 'home-dies');
    const tabmcp = await startStdioMcp({
      args: [serverBin, '--launch', '--browser', browser, '--port', String(await freePort())],
      env: { ...withoutDisplay(), TABMCP_HOME: home },
      clientName: 'tabmcp-browser-dies',
    });
    let text: string;
    try {
      const answer = await tabmcp.call('connect_browser');
      text = textOf(answer);
      assert.equal(answer.isError, true, text);
      // Its own reason, not the 20 s "extension did not connect" of a browser that never dials in.
      assert.doesNotMatch(text, /did not connect within/);
      assert.match(text, /exited with code 3/);
      assert.match(text, /Missing X server or \$DISPLAY \(stand-in\)/);
      assert.match(tabmcp.stderr(), /"event":"browser.exited".*"code":3/);
    } finally {
      await tabmcp.close();
    }
    const keptLog = /kept at (\S+\.log)/.exec(text)?.[1];
    assert.ok(keptLog, text);
    assert.ok(keptLog.startsWith(join(home, 'logs')), keptLog);
    // Still there after tabmcp ended (its profile, where the log was written, is gone).
    assert.ok(existsSync(keptLog), keptLog);
    assert.match(readFileSync(keptLog, 'utf8'), /Missing X server/);
  });
});
