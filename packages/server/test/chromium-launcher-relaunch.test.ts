import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { waitFor } from '../../../test-support/wait';
import { ChromiumLauncher } from '../src/launcher/chromium-launcher';

// A stand-in browser: a real process that ignores Chromium's arguments and lives until killed.
describe('ChromiumLauncher after the link dropped', () => {
  let dir = '';
  let launcher: ChromiumLauncher;
  let events: Array<{ event: string; details: Record<string, unknown> }> = [];
  const launchedPids = () => events.filter((e) => e.event === 'browser.launched').map((e) => e.details.pid as number);
  const profiles = () => events.filter((e) => e.event === 'browser.launched').map((e) => String(e.details.profileDir));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabmcp-launcher-test-'));
    const browser = join(dir, 'fake-browser.sh');
    writeFileSync(browser, '#!/bin/sh\nexec sleep 60\n');
    chmodSync(browser, 0o755);
    const extensionDir = join(dir, 'extension');
    mkdirSync(extensionDir);
    writeFileSync(join(extensionDir, 'manifest.json'), '{}');
    events = [];
    launcher = new ChromiumLauncher({
      browserPath: browser,
      extensionDir,
      linkPort: 1,
      token: 't',
      headless: true,
      exitGraceMs: 300,
      log: (event, details = {}) => events.push({ event, details }),
    });
  });

  afterEach(async () => {
    await launcher.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('launches a new browser when the old one was killed but Node has not reaped it yet', async () => {
    await launcher.launch();
    const [first] = launchedPids();
    assert.ok(first);
    process.kill(-first, 'SIGKILL');
    // Same tick as the kill: the exit cannot have been seen yet, as when the link drops first.
    assert.equal(launcher.running, true);
    await launcher.launch({ linkDroppedAt: performance.now() });
    assert.equal(launchedPids().length, 2, 'a second browser was launched');
    assert.equal(launcher.running, true);
    const [dead, live] = profiles();
    await waitFor(() => !existsSync(String(dead)), 5_000, 'the dead browser profile to be removed');
    assert.equal(existsSync(String(live)), true);
  });

  it('launches nothing while the browser it started is alive (only its extension reconnects)', async () => {
    await launcher.launch();
    await launcher.launch({ linkDroppedAt: performance.now() });
    assert.equal(launchedPids().length, 1);
    assert.equal(launcher.running, true);
  });

  it('does not wait for a browser started after the drop (a launch already under way)', async () => {
    const droppedAt = performance.now();
    await launcher.launch();
    await launcher.launch({ linkDroppedAt: droppedAt });
    assert.equal(launchedPids().length, 1);
    assert.equal(
      events.some((e) => e.event === 'browser.awaiting-exit'),
      false,
    );
  });
});
