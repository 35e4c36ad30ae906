import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chooseProfileRoot, privateFolderPath, profileRoots } from '../src/launcher/profile-root';
import { reclaimStaleProfiles } from '../src/launcher/stale-profiles';

/**
 * Issue 26, high: another local user planted `tabmcp-profile-*` folders (owner.json of dead pids) in
 * the shared /dev/shm and temp dir, and swapped a subfolder for a symlink to the victim's ~/.ssh while
 * the victim's tabmcp removed it. The attacker here is another uid: the test runs as root so it can
 * hand the planted files to one (skipped otherwise).
 */
const OTHER_USER = 4242;
const asRoot = process.getuid?.() === 0;

function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  assert.ok(pid);
  return pid;
}

/** A victim's folder of secrets, and a shared, sticky, world-writable folder like /dev/shm. */
function scene() {
  const base = mkdtempSync(join(tmpdir(), 'tabmcp-sweep-attack-'));
  const victim = join(base, 'victim-ssh');
  mkdirSync(victim);
  for (let i = 0; i < 5; i++) writeFileSync(join(victim, `id_${i}`), 'secret');
  const shared = join(base, 'shm');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { base, victim, shared };
}

/** What the other user plants: a stale-looking profile owned by them, with a link to the victim's folder. */
function plantProfile(parent: string, victim: string): string {
  const planted = join(parent, 'tabmcp-profile-planted');
  mkdirSync(planted);
  writeFileSync(join(planted, 'owner.json'), JSON.stringify({ pid: deadPid(), browserPid: deadPid() }));
  mkdirSync(join(planted, 'Default'));
  symlinkSync(victim, join(planted, 'Default', 'swapped'));
  for (const path of [planted, join(planted, 'owner.json'), join(planted, 'Default')]) {
    chownSync(path, OTHER_USER, OTHER_USER);
  }
  return planted;
}

describe('the stale-profile sweep never removes what this user does not own, nor follows a link (issue 26)', {
  skip: !asRoot && 'needs root to act as another user',
}, () => {
  const cleanup: string[] = [];
  after(() => {
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });

  it("a profile another user planted in the shared folder survives every launch's sweep", async () => {
    const { base, victim, shared } = scene();
    cleanup.push(base);
    const planted = plantProfile(shared, victim);
    // Also one planted inside the private folder's parent path, where the old sweep looked.
    const choice = chooseProfileRoot({ env: { TABMCP_PROFILE_ROOT: shared } });
    for (const root of profileRoots(choice)) await reclaimStaleProfiles(root);
    // The sweep of the shared folder itself (the old launcher's call) removes nothing either.
    assert.deepEqual(await reclaimStaleProfiles(shared), []);
    assert.ok(existsSync(join(planted, 'owner.json')), 'the other user’s folder was removed');
    assert.equal(readdirSync(victim).length, 5);
  });

  it('profiles go into a 0700 folder of this user, never straight into the shared folder', () => {
    const { base, shared } = scene();
    cleanup.push(base);
    const choice = chooseProfileRoot({ env: { TABMCP_PROFILE_ROOT: shared } });
    assert.equal(choice.dir, privateFolderPath(shared));
    const stats = lstatSync(choice.dir);
    assert.equal(stats.isDirectory(), true);
    assert.equal(stats.uid, process.getuid?.());
    assert.equal(stats.mode & 0o777, 0o700);
  });

  it('a private folder planted as a symlink to the victim’s files is refused, and nothing there is removed', async () => {
    const { base, victim, shared } = scene();
    cleanup.push(base);
    // The victim's folder holds something that looks like a stale profile of this user.
    const lookalike = join(victim, 'tabmcp-profile-x');
    mkdirSync(lookalike);
    writeFileSync(join(lookalike, 'owner.json'), JSON.stringify({ pid: deadPid(), browserPid: deadPid() }));
    symlinkSync(victim, privateFolderPath(shared));
    assert.throws(() => chooseProfileRoot({ env: { TABMCP_PROFILE_ROOT: shared } }), /is a symbolic link/);
    assert.deepEqual(await reclaimStaleProfiles(privateFolderPath(shared)), []);
    assert.ok(existsSync(lookalike));
  });

  it('a private folder another user created (or left open to others) is refused', () => {
    for (const [uid, mode, reason] of [
      [OTHER_USER, 0o700, /belongs to user 4242/],
      [process.getuid?.() ?? 0, 0o777, /can be opened by other users/],
    ] as const) {
      const { base, shared } = scene();
      cleanup.push(base);
      const planted = privateFolderPath(shared);
      mkdirSync(planted);
      chownSync(planted, uid, uid);
      chmodSync(planted, mode);
      assert.throws(() => chooseProfileRoot({ env: { TABMCP_PROFILE_ROOT: shared } }), reason);
    }
  });

  it('inside the private folder, an entry this user does not own or that is a link is left alone', async () => {
    const { base, victim, shared } = scene();
    cleanup.push(base);
    const { dir } = chooseProfileRoot({ env: { TABMCP_PROFILE_ROOT: shared } });
    const foreign = plantProfile(dir, victim);
    symlinkSync(victim, join(dir, 'tabmcp-profile-link'));
    const own = join(dir, 'tabmcp-profile-own');
    mkdirSync(own);
    writeFileSync(join(own, 'owner.json'), JSON.stringify({ pid: deadPid(), browserPid: deadPid() }));
    assert.deepEqual(await reclaimStaleProfiles(dir), [own]);
    assert.ok(existsSync(foreign));
    assert.equal(readdirSync(victim).length, 5);
  });
});
