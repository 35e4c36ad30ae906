import { accessSync, constants, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** RAM-backed on Linux desktops and most servers; a container's default /dev/shm (64 MiB) is too small. */
const RAM_ROOT = '/dev/shm';
/** Room a launched profile and the browser's own shared memory need left over in RAM_ROOT. */
const MIN_FREE_BYTES = 1024 ** 3;
/** With the profile in RAM, the browser's HTTP cache is held to this (it has none of its own limit below ~GBs). */
export const RAM_PROFILE_DISK_CACHE_BYTES = 100 * 1024 ** 2;

export interface ProfileRootChoice {
  dir: string;
  /** True when the folder is RAM-backed (tmpfs): bound what the browser may cache there. */
  inMemory: boolean;
}

export interface ProfileRootOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Free bytes of a folder we may write to, or undefined when it is missing or read-only. */
  freeBytes?: (dir: string) => number | undefined;
}

/**
 * Where a launched browser's temporary profile goes. A fresh profile means ~150 files created by
 * Chromium before its extension starts: on this project's CI disk (ext4 on a VM, ~1 ms a file) that is
 * 80 ms of the cold start, on tmpfs almost nothing (bench/tools-call.ts). So /dev/shm when it has
 * room, else the temp dir; TABMCP_PROFILE_ROOT overrides both. Nothing of a RAM-backed profile, its
 * copy of the pairing token included, ever reaches the disk.
 */
export function chooseProfileRoot(options: ProfileRootOptions = {}): ProfileRootChoice {
  const env = options.env ?? process.env;
  if (env.TABMCP_PROFILE_ROOT) return { dir: env.TABMCP_PROFILE_ROOT, inMemory: false };
  if ((options.platform ?? process.platform) === 'linux') {
    const free = (options.freeBytes ?? freeBytesOf)(RAM_ROOT);
    if (free !== undefined && free >= MIN_FREE_BYTES) return { dir: RAM_ROOT, inMemory: true };
  }
  return { dir: tmpdir(), inMemory: false };
}

/** Every folder a launch may have left a profile in: the stale-profile sweep looks in all of them. */
export function profileRoots(chosen: ProfileRootChoice): string[] {
  return [...new Set([chosen.dir, tmpdir()])];
}

function freeBytesOf(dir: string): number | undefined {
  try {
    accessSync(dir, constants.W_OK);
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}
