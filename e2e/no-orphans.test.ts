import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';
import { waitFor } from '../test-support/wait';

/** True while any process of the group led by `pid` lives (the browser and its helpers). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Issue 11, "no orphans": a launched Chromium and its temporary profile (which holds the pairing
 * token) go away when tabmcp dies, even by SIGKILL, which no handler in tabmcp can see.
 */
describe('a SIGKILLed tabmcp leaves no browser behind', () => {
  let tabmcp: StdioMcp;
  before(async () => {
    tabmcp = await startTabmcpProcess({
      args: ['--launch', '--headless', '--port', String(await freePort())],
      clientName: 'tabmcp-no-orphans',
    });
  });
  after(async () => {
    await tabmcp?.close().catch(() => {});
  });

  it('its Chromium exits and its profile is removed', async () => {
    const connected = await tabmcp.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    const launched = /"event":"browser.launched".*"pid":(\d+),"profileDir":"([^"]+)"/.exec(tabmcp.stderr());
    assert.ok(launched, tabmcp.stderr());
    const browserPid = Number(launched[1]);
    const profileDir = launched[2] ?? '';
    assert.ok(groupAlive(browserPid) && existsSync(profileDir), 'the launched browser runs on its profile');

    process.kill(tabmcp.pid, 'SIGKILL');
    await waitFor(() => !groupAlive(browserPid), 15_000, `Chromium (process group ${browserPid}) to exit`);
    await waitFor(() => !existsSync(profileDir), 10_000, `${profileDir} to be removed`);
  });
});
