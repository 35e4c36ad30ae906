import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * Runs in its own small node process. Its stdin is a pipe from tabmcp, which the kernel closes
 * when tabmcp dies in any way, SIGKILL included: then it stops the browser's process group,
 * SIGKILL after a grace, and removes the profile (it holds the pairing token). Inline, because
 * tabmcp ships as one bundled file.
 */
const WATCHDOG_SCRIPT = `
const { rm } = require('node:fs/promises');
const [pid, profileDir] = process.argv.slice(1);
const signal = (name) => {
  try { process.kill(process.platform === 'win32' ? Number(pid) : -Number(pid), name); return true; }
  catch { return false; }
};
let cleaning = false;
const cleanUp = () => {
  if (cleaning) return;
  cleaning = true;
  signal('SIGTERM');
  const deadline = Date.now() + 5000;
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

/** Watches tabmcp on behalf of the browser it launched (issue 11: no orphans). */
export function watchBrowser(browserPid: number, profileDir: string): BrowserWatchdog {
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG_SCRIPT, String(browserPid), profileDir], {
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
