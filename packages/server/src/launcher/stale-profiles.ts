import { writeFileSync } from 'node:fs';
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { privateFolderProblem } from './profile-root';

export const PROFILE_PREFIX = 'tabmcp-profile-';
const OWNER_FILE = 'owner.json';

/** Records who may remove this profile: the tabmcp that launched the browser, and the browser. */
export function markProfileOwner(profileDir: string, browserPid: number): void {
  writeFileSync(join(profileDir, OWNER_FILE), JSON.stringify({ pid: process.pid, browserPid }));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The backstop of the watchdog (browser-watchdog.ts), for when it died with tabmcp (a whole
 * process tree killed at once): removes the profiles, pairing token included, whose tabmcp and
 * browser are both gone. A profile without an owner file (one being created, or another
 * version's) is left alone; a reused pid only keeps a profile longer.
 *
 * `root` must be this user's private folder (profile-root.ts), else nothing is removed: a recursive
 * remove follows a subfolder swapped for a symlink mid-walk, so it is only safe where nobody else
 * can write (issue 26: another user's planted profile made the sweep delete the victim's ~/.ssh).
 * Each profile is also checked with lstat: a link or what this user does not own is never removed.
 */
export async function reclaimStaleProfiles(root: string): Promise<string[]> {
  if (privateFolderProblem(root) !== undefined) return [];
  let entries: string[];
  try {
    entries = (await readdir(root)).filter((entry) => entry.startsWith(PROFILE_PREFIX));
  } catch {
    return [];
  }
  const reclaimed: string[] = [];
  for (const entry of entries) {
    const dir = join(root, entry);
    if (!(await isOwnFolder(dir))) continue;
    let owner: { pid?: unknown; browserPid?: unknown };
    try {
      owner = JSON.parse(await readFile(join(dir, OWNER_FILE), 'utf8')) as typeof owner;
    } catch {
      continue;
    }
    const pids = [owner.pid, owner.browserPid];
    if (!pids.every((pid) => Number.isInteger(pid)) || pids.some((pid) => alive(pid as number))) continue;
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    reclaimed.push(dir);
  }
  return reclaimed;
}

async function isOwnFolder(dir: string): Promise<boolean> {
  try {
    const stats = await lstat(dir);
    return stats.isDirectory() && !stats.isSymbolicLink() && stats.uid === (process.getuid?.() ?? stats.uid);
  } catch {
    return false;
  }
}
