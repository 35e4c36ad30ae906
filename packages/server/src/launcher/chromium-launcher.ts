import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, type Logger, ProtocolError } from '@tabmcp/protocol';
import type { BrowserLauncher, LaunchRequest } from '../core/browser-connection';
import { type BrowserWatchdog, watchBrowser } from './browser-watchdog';
import { chromiumArgs } from './chromium-args';
import { findBrowser, INSTALL_INSTRUCTIONS } from './find-browser';
import { chooseProfileRoot, profileRoots, RAM_PROFILE_DISK_CACHE_BYTES, storageBoundArgs } from './profile-root';
import { markProfileOwner, PROFILE_PREFIX, reclaimStaleProfiles } from './stale-profiles';

export interface LaunchOptions {
  browserPath: string | undefined;
  extensionDir: string;
  linkPort: number;
  token: string;
  headless: boolean;
  startUrl?: string;
  /** After the link dropped, how long a launch waits for the old browser to exit (default 2 s). */
  exitGraceMs?: number;
  log?: Logger;
}

/** How long stop() waits for the browser to exit before removing its profile anyway. */
const STOP_WAIT_MS = 3_000;
/**
 * After the link dropped, how long a launch request waits for the old browser to exit before it
 * concludes the browser is alive (only its extension worker restarted) and launches nothing.
 */
const EXIT_GRACE_MS = 2_000;

/**
 * Starts Chromium on a fresh profile with a copy of the extension that already knows the link's
 * port and pairing token, so a launched browser pairs by itself. Only the process we started is
 * ever stopped.
 */
export class ChromiumLauncher implements BrowserLauncher {
  readonly #options: LaunchOptions;
  #child: ChildProcess | undefined;
  #profileDir: string | undefined;
  #watchdog: BrowserWatchdog | undefined;
  #startedAt = 0;

  constructor(options: LaunchOptions) {
    this.#options = options;
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null;
  }

  async launch(request: LaunchRequest = {}): Promise<void> {
    const previous = this.#child;
    const droppedAt = request.linkDroppedAt;
    if (previous && this.running && droppedAt !== undefined && this.#startedAt <= droppedAt) {
      this.#options.log?.('browser.awaiting-exit', { pid: previous.pid });
      await waitForExit(previous, this.#options.exitGraceMs ?? EXIT_GRACE_MS);
    }
    if (this.running) return;
    const executable = findBrowser(this.#options.browserPath);
    if (!executable) throw new ProtocolError(ErrorCode.ServerError, INSTALL_INSTRUCTIONS);
    // The profile of a browser that died (crashed, killed, closed by the user) is no longer needed.
    const deadProfile = this.#profileDir;
    if (deadProfile) rm(deadProfile, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
    const profileRoot = chooseProfileRoot();
    const profileDir = mkdtempSync(join(profileRoot.dir, PROFILE_PREFIX));
    const extensionDir = join(profileDir, 'extension');
    // Without the source maps (most of its bytes): less to copy now and to remove later.
    cpSync(this.#options.extensionDir, extensionDir, { recursive: true, filter: (path) => !path.endsWith('.map') });
    writeFileSync(
      join(extensionDir, 'config.json'),
      JSON.stringify({ port: this.#options.linkPort, token: this.#options.token }),
    );
    // Without developer mode a fresh profile disables an unpacked extension on chrome.runtime.reload().
    mkdirSync(join(profileDir, 'Default'), { recursive: true });
    writeFileSync(
      join(profileDir, 'Default', 'Preferences'),
      JSON.stringify({ extensions: { ui: { developer_mode: true } } }),
    );
    const args = [
      ...chromiumArgs({ headless: this.#options.headless, profileDir, extensionDirs: [extensionDir] }),
      ...(profileRoot.inMemory ? [`--disk-cache-size=${RAM_PROFILE_DISK_CACHE_BYTES}`] : []),
      ...storageBoundArgs(profileRoot.dir),
      // For tests and debugging, e.g. --remote-debugging-port=0.
      ...(process.env.TABMCP_BROWSER_ARGS?.split(' ').filter(Boolean) ?? []),
      this.#options.startUrl ?? 'about:blank',
    ];
    const logFd = openSync(join(profileDir, 'chromium.log'), 'a');
    const child = spawn(executable, args, { detached: true, stdio: ['ignore', logFd, logFd] });
    this.#child = child;
    this.#startedAt = performance.now();
    this.#profileDir = profileDir;
    this.#options.log?.('browser.launched', { executable, pid: child.pid, profileDir });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) =>
        reject(
          new ProtocolError(
            ErrorCode.ServerError,
            `Could not start ${executable}: ${error.message}. ${INSTALL_INSTRUCTIONS}`,
          ),
        ),
      );
    });
    // Even a SIGKILLed tabmcp must not leave this browser and its profile behind (issue 11).
    if (child.pid !== undefined) markProfileOwner(profileDir, child.pid);
    // Off the launch's path: the new browser starts while old leftovers are removed.
    Promise.all(profileRoots(profileRoot).map((root) => reclaimStaleProfiles(root))).then(
      (lists) => {
        const reclaimed = lists.flat();
        if (reclaimed.length > 0) this.#options.log?.('browser.profiles-reclaimed', { reclaimed });
      },
      () => {},
    );
    const watchdog = child.pid === undefined ? undefined : watchBrowser(child.pid, profileDir);
    this.#watchdog = watchdog;
    child.once('exit', (code, signal) => {
      this.#options.log?.('browser.exited', { code, signal });
      watchdog?.release();
      if (this.#child === child) this.#child = undefined;
    });
  }

  /** Stops the browser we started (its whole process group) and removes its profile. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    const running = child !== undefined && child.exitCode === null && child.signalCode === null;
    const exited = running ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
    if (running && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    }
    this.#watchdog?.release();
    this.#watchdog = undefined;
    const profileDir = this.#profileDir;
    this.#profileDir = undefined;
    if (!profileDir) return;
    // Chromium writes to its profile until it exits; the caller may exit right after, so wait here.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    rmSync(profileDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    child.once('exit', done);
  });
}
