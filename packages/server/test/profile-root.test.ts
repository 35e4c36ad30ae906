import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { chooseProfileRoot, profileRoots } from '../src/launcher/profile-root';

const GiB = 1024 ** 3;

describe("a launched browser's profile root", () => {
  it('is /dev/shm on Linux when it has room: the profile lives in RAM', () => {
    const choice = chooseProfileRoot({ env: {}, platform: 'linux', freeBytes: () => 8 * GiB });
    assert.deepEqual(choice, { dir: '/dev/shm', inMemory: true });
  });

  it("is the temp dir when /dev/shm is a container's small default, missing or read-only", () => {
    for (const free of [64 * 1024 ** 2, undefined]) {
      const choice = chooseProfileRoot({ env: {}, platform: 'linux', freeBytes: () => free });
      assert.deepEqual(choice, { dir: tmpdir(), inMemory: false }, String(free));
    }
  });

  it('is the temp dir on macOS and Windows', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const choice = chooseProfileRoot({ env: {}, platform, freeBytes: () => 8 * GiB });
      assert.deepEqual(choice, { dir: tmpdir(), inMemory: false }, platform);
    }
  });

  it('is TABMCP_PROFILE_ROOT when set', () => {
    const choice = chooseProfileRoot({
      env: { TABMCP_PROFILE_ROOT: '/srv/profiles' },
      platform: 'linux',
      freeBytes: () => 8 * GiB,
    });
    assert.deepEqual(choice, { dir: '/srv/profiles', inMemory: false });
  });

  it('the stale-profile sweep looks in the chosen root and the temp dir, once each', () => {
    assert.deepEqual(profileRoots({ dir: '/dev/shm', inMemory: true }), ['/dev/shm', tmpdir()]);
    assert.deepEqual(profileRoots({ dir: tmpdir(), inMemory: false }), [tmpdir()]);
  });
});
