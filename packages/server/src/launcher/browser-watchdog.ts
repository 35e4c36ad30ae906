import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * The watchdog's stdin is a pipe from tabmcp, which the kernel closes when tabmcp dies in any way,
 * SIGKILL included: then it stops the browser's process group, SIGKILL after a grace (5 s), and
 * removes the profile (it holds the pairing token). On POSIX it is a /bin/sh script (about 1 MiB
 * resident; a `node` would be about 40 MiB per launched browser), with $1 the browser's pid, $2
 * its profile and $3 the grace in tenths of a second. `read` returns non-zero at end of file;
 * nothing is ever written to the pipe.
 */
const POSIX_WATCHDOG = `
while read -r _; do :; done
kill -s TERM -- "-$1" 2>/dev/null
tries=0
while [ "$tries" -lt "$3" ] && kill -s 0 -- "-$1" 2>/dev/null; do
  sleep 0.1
  tries=$((tries + 1))
done
kill -s KILL -- "-$1" 2>/dev/null
rm -rf -- "$2"
`;

/** Windows has no /bin/sh and no process groups to signal: a small node process does the same. */
const NODE_WATCHDOG = `
const { rm } = require('node:fs/promises');
const [pid, profileDir, graceMs] = process.argv.slice(1);
const signal = (name) => {
  try { process.kill(Number(pid), name); return true; }
  catch { return false; }
};
let cleaning = false;
const cleanUp = () => {
  if (cleaning) return;
  cleaning = true;
  signal('SIGTERM');
  const deadline = Date.now() + Number(graceMs);
  const poll = setInterval(() => {
    if (signal(0) && Date.now() < deadline) return;
    clearInterval(poll);
    signal('SIGKILL');
    rm(profileDir, { recursive: true, force: true, maxRetries: 5 }).finally(() => process.exit(0));
  }, 100);
};
process.stdin.on('end', cleanUp);
process.stdin.on('error', cleanUp);
process.stdin.resume();
`;

export interface BrowserWatchdog {
  /** The browser is gone or stopped by tabmcp itself: clean up now and let the watchdog exit. */
  release(): void;
}

/** How long a browser has to exit after SIGTERM before the watchdog sends SIGKILL. */
const GRACE_MS = 5_000;

/** The watchdog's command line: inline scripts, because tabmcp ships as one bundled file. */
function watchdogCommand(
  browserPid: number,
  profileDir: string,
  platform: NodeJS.Platform,
  graceMs: number,
): [string, string[]] {
  if (platform === 'win32')
    return [process.execPath, ['-e', NODE_WATCHDOG, String(browserPid), profileDir, String(graceMs)]];
  const tenths = String(Math.max(1, Math.ceil(graceMs / 100)));
  return ['/bin/sh', ['-c', POSIX_WATCHDOG, 'tabmcp-watchdog', String(browserPid), profileDir, tenths]];
}

/** Watches tabmcp on behalf of the browser it launched (issue 11: no orphans). */
export function watchBrowser(
  browserPid: number,
  profileDir: string,
  platform: NodeJS.Platform = process.platform,
  graceMs = GRACE_MS,
): BrowserWatchdog {
  const [command, args] = watchdogCommand(browserPid, profileDir, platform, graceMs);
  const watchdog = spawn(command, args, {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    windowsHide: true,
  });
  watchdog.on('error', () => {});
  // Neither the watchdog nor its pipe may keep tabmcp's event loop alive.
  watchdog.unref();
  const pipe = watchdog.stdin as Socket | null;
  pipe?.on('error', () => {});
  pipe?.unref();
  return { release: () => pipe?.end() };
}
