import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { reclaimStaleProfiles } from '../src/launcher/stale-profiles';

/** A pid that no process has any more: one that ran and exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  assert.ok(pid);
  return pid;
}

describe('stale launch profiles are reclaimed at the next launch (issue 11, no orphans)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tabmcp-reclaim-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  const profile = (name: string, owner?: { pid: number; browserPid: number }) => {
    const dir = join(root, `tabmcp-profile-${name}`);
    mkdirSync(join(dir, 'extension'), { recursive: true });
    writeFileSync(join(dir, 'extension', 'config.json'), '{"token":"secret"}');
    if (owner) writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
    return dir;
  };

  it('removes only the profiles whose tabmcp and browser are both gone', async () => {
    const dead = deadPid();
    const stale = profile('stale', { pid: dead, browserPid: deadPid() });
    const ownerAlive = profile('owner-alive', { pid: process.pid, browserPid: dead });
    const browserAlive = profile('browser-alive', { pid: dead, browserPid: process.pid });
    const unmarked = profile('unmarked');
    const other = join(root, 'something-else');
    mkdirSync(other);

    assert.deepEqual(await reclaimStaleProfiles(root), [stale]);
    assert.equal(existsSync(stale), false);
    for (const kept of [ownerAlive, browserAlive, unmarked, other]) assert.ok(existsSync(kept), kept);
  });
});
