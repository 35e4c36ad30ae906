import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  chooseProfileRoot,
  PROFILE_STORAGE_POOL_BYTES,
  privateFolderPath,
  profileRoots,
  storageBoundArgs,
} from '../src/launcher/profile-root';

const GiB = 1024 ** 3;

describe("a launched browser's profile root", () => {
  it('is /dev/shm on Linux when it has room: the profile lives in RAM', () => {
    const choice = chooseProfileRoot({ env: {}, platform: 'linux', freeBytes: () => 8 * GiB });
    assert.deepEqual(choice, { dir: privateFolderPath('/dev/shm'), inMemory: true });
  });

  it("is the temp dir when /dev/shm is a container's small default, missing or read-only", () => {
    for (const free of [64 * 1024 ** 2, undefined]) {
      const choice = chooseProfileRoot({ env: {}, platform: 'linux', freeBytes: () => free });
      assert.deepEqual(choice, { dir: privateFolderPath(tmpdir()), inMemory: false }, String(free));
    }
  });

  it('is the temp dir on macOS and Windows', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const choice = chooseProfileRoot({ env: {}, platform, freeBytes: () => 8 * GiB });
      assert.deepEqual(choice, { dir: privateFolderPath(tmpdir()), inMemory: false }, platform);
    }
  });

  it('is inside TABMCP_PROFILE_ROOT when set', () => {
    const root = mkdtempSync(join(tmpdir(), 'tabmcp-root-'));
    try {
      const choice = chooseProfileRoot({
        env: { TABMCP_PROFILE_ROOT: root },
        platform: 'linux',
        freeBytes: () => 8 * GiB,
      });
      assert.deepEqual(choice, { dir: privateFolderPath(root), inMemory: false });
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it("the stale-profile sweep looks in the chosen private folder and the temp dir's, once each", () => {
    const inTemp = chooseProfileRoot({ env: {}, platform: 'darwin' }).dir;
    assert.deepEqual(profileRoots({ dir: '/dev/shm/tabmcp-x', inMemory: true }), ['/dev/shm/tabmcp-x', inTemp]);
    assert.deepEqual(profileRoots({ dir: inTemp, inMemory: false }), [inTemp]);
  });

  it("holds all sites' storage to the same pool whatever the file system's size", () => {
    for (const total of [24 * GiB, 250 * GiB, 2 * GiB]) {
      const [flag] = storageBoundArgs('/unused', total);
      const ratio = Number(/PoolSizeRatio\/([\d.e-]+)$/.exec(flag ?? '')?.[1]);
      assert.ok(Math.abs(ratio * total - PROFILE_STORAGE_POOL_BYTES) < 1024 ** 2, `${flag} for ${total}`);
    }
    assert.deepEqual(storageBoundArgs('/unused', 0), []);
  });
});
