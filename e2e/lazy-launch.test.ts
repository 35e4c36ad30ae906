import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chooseProfileRoot, RAM_PROFILE_DISK_CACHE_BYTES } from '../packages/server/src/launcher/profile-root';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';

/**
 * Issue 11: `tabmcp --launch` starts Chromium at the first need, not at process start, so a
 * client that only initializes and lists tools (`claude mcp list`, a protocol probe) starts no
 * browser; the first connect_browser then launches it without being told to.
 */
describe('--launch launches on first need', () => {
  let tabmcp: StdioMcp;
  before(async () => {
    tabmcp = await startTabmcpProcess({
      args: ['--launch', '--headless', '--port', String(await freePort())],
      clientName: 'tabmcp-lazy-launch',
    });
  });
  after(() => tabmcp?.close());

  it('initialize and tools/list start no browser', async () => {
    const names = await tabmcp.toolNames();
    assert.ok(names.includes('connect_browser'), names.join(', '));
    // A health check ends here; give a would-be launch the time it used to take to show up in the log.
    await new Promise((settle) => setTimeout(settle, 1_500));
    assert.doesNotMatch(tabmcp.stderr(), /"event":"browser.launched"/);
  });

  it('the first connect_browser launches it', async () => {
    const connected = await tabmcp.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    assert.match(tabmcp.stderr(), /"event":"browser.launched"/);
  });

  it('on a temporary profile in RAM where the machine has room (/dev/shm), its cache held small there', () => {
    const launched = /"event":"browser.launched".*"pid":(\d+),"profileDir":"([^"]+)"/.exec(tabmcp.stderr());
    assert.ok(launched, tabmcp.stderr());
    const root = chooseProfileRoot();
    assert.equal(dirname(launched[2] ?? ''), root.dir);
    const commandLine = readFileSync(`/proc/${launched[1]}/cmdline`, 'utf8').split('\0');
    assert.equal(commandLine.includes(`--disk-cache-size=${RAM_PROFILE_DISK_CACHE_BYTES}`), root.inMemory);
  });
});
