import { accessSync, constants, lstatSync, mkdirSync, statfsSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** RAM-backed on Linux desktops and most servers; a container's default /dev/shm (64 MiB) is too small. */
const RAM_ROOT = '/dev/shm';
/** Room a launched profile and the browser's own shared memory need left over in RAM_ROOT. */
const MIN_FREE_BYTES = 1024 ** 3;
/** With the profile in RAM, the browser's HTTP cache is held to this (it has none of its own limit below ~GBs). */
export const RAM_PROFILE_DISK_CACHE_BYTES = 100 * 1024 ** 2;
/**
 * What all sites' storage (IndexedDB, Cache Storage, OPFS…) may take in a launched profile together;
 * one origin gets about 70 % of it. Chromium sizes it as a ratio of the profile's file system
 * (60 %, so 14 GiB of a 24 GiB /dev/shm: issue 26, a page wrote 1 GiB into RAM in 6 s).
 */
export const PROFILE_STORAGE_POOL_BYTES = 256 * 1024 ** 2;

export interface ProfileRootChoice {
  /** This user's private folder (0700, checked with lstat) that launched profiles are created in. */
  dir: string;
  /** True when the folder is RAM-backed (tmpfs): bound what the browser may cache and store there. */
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
 *
 * /dev/shm and the temp dir are shared by every local user, so profiles never go there directly but
 * into this user's private folder inside (issue 26): nobody else can plant, rename or swap anything
 * in it, which is what lets the stale-profile sweep remove recursively. A private folder that is a
 * symlink or another user's is refused (the temp dir is tried next; then the launch fails saying why).
 */
export function chooseProfileRoot(options: ProfileRootOptions = {}): ProfileRootChoice {
  const env = options.env ?? process.env;
  if (env.TABMCP_PROFILE_ROOT) return { dir: ensurePrivateFolder(env.TABMCP_PROFILE_ROOT), inMemory: false };
  if ((options.platform ?? process.platform) === 'linux') {
    const free = (options.freeBytes ?? freeBytesOf)(RAM_ROOT);
    if (free !== undefined && free >= MIN_FREE_BYTES) {
      try {
        return { dir: ensurePrivateFolder(RAM_ROOT), inMemory: true };
      } catch {
        // Planted by someone else: the temp dir's own private folder is checked the same way.
      }
    }
  }
  return { dir: ensurePrivateFolder(tmpdir()), inMemory: false };
}

/**
 * Every private folder a launch may have left a profile in: the stale-profile sweep looks in these
 * only, never in a shared folder. The temp dir's is swept only when it already exists and is private.
 */
export function profileRoots(chosen: ProfileRootChoice): string[] {
  const inTemp = privateFolderPath(tmpdir());
  return [...new Set([chosen.dir, ...(privateFolderProblem(inTemp) === undefined ? [inTemp] : [])])];
}

/** `tabmcp-<uid>` (the user name where there are no uids: Windows, whose temp dir is per user anyway). */
export function privateFolderPath(parent: string): string {
  return join(parent, `tabmcp-${process.getuid?.() ?? userInfo().username}`);
}

/**
 * Why `dir` is not a private folder of this user, or undefined when it is. lstat, so a symlink is
 * never followed: a folder planted as a link to the victim's files is refused, not used.
 */
export function privateFolderProblem(dir: string): string | undefined {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(dir);
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
  if (stats.isSymbolicLink()) return 'is a symbolic link';
  if (!stats.isDirectory()) return 'is not a folder';
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) return `belongs to user ${stats.uid}, not to this user (${uid})`;
  if ((stats.mode & 0o077) !== 0) return `can be opened by other users (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Creates (0700) or reuses this user's private folder in `parent`, after checking it is really private. */
export function ensurePrivateFolder(parent: string): string {
  const dir = privateFolderPath(parent);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const problem = privateFolderProblem(dir);
  if (problem === undefined) return dir;
  throw new Error(
    `${dir} ${problem}, so tabmcp will not put a browser profile there (another local user may have planted ` +
      'it). Remove it, or set TABMCP_PROFILE_ROOT to a folder only you can write to.',
  );
}

/**
 * Chromium flags that hold all sites' storage in the profile at `dir` to PROFILE_STORAGE_POOL_BYTES,
 * whatever the file system (RAM or disk): the pool is a ratio of the file system's size, so it is
 * computed from it. Past it, a page's writes fail with QuotaExceededError. Measured with
 * e2e/security-profile-storage.test.ts (1 GiB written without it; 176 MiB with a 245 MiB pool).
 */
export function storageBoundArgs(dir: string, totalBytes = totalBytesOf(dir)): string[] {
  if (totalBytes === undefined || totalBytes <= 0) return [];
  const ratio = Math.min(1, PROFILE_STORAGE_POOL_BYTES / totalBytes);
  return [`--enable-features=StorageQuotaSettings:PoolSizeRatio/${ratio.toPrecision(6)}`];
}

function totalBytesOf(dir: string): number | undefined {
  try {
    const stats = statfsSync(dir);
    return stats.blocks * stats.bsize;
  } catch {
    return undefined;
  }
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
