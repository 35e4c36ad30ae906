import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../../test-support/wait';
import { watchBrowser } from '../src/launcher/browser-watchdog';

/** True while any process of the group led by `pid` lives. */
function groupAlive(pid: number): boolean {
  return alive(-pid);
}

/** `target` as process.kill takes it: a pid, or minus a process group's id. */
function alive(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch {
    return false;
  }
}

/** The argv of the running processes whose command line names `text`, from /proc (Linux). */
function commandLinesNaming(text: string): string[][] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')];
      } catch {
        return [];
      }
    })
    .filter((argv) => argv.some((arg) => arg.includes(text)));
}

/** A stand-in browser: a process group led by a shell, optionally deaf to SIGTERM. */
function fakeBrowser(ignoreTerm: boolean): ChildProcess {
  const script = ignoreTerm ? 'trap "" TERM; while :; do sleep 1; done' : 'sleep 300';
  const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

function fakeProfile(root: string, name: string): string {
  const dir = mkdtempSync(join(root, `${name}-`));
  writeFileSync(join(dir, 'config.json'), '{"token":"secret"}');
  return dir;
}

// The cases run side by side: each has its own stand-in browser and profile. A /bin/sh script has no clock
// to mock: the deaf browser's case gives the watchdog a short grace (production's is 5 s) and waits it out.
describe('the browser watchdog (issue 11, no orphans)', {
  skip: process.platform === 'win32',
  concurrency: true,
}, () => {
  const root = mkdtempSync(join(tmpdir(), 'tabmcp-watchdog-'));
  const browsers: ChildProcess[] = [];
  after(() => {
    for (const browser of browsers) if (browser.pid && groupAlive(browser.pid)) process.kill(-browser.pid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('on POSIX is a /bin/sh script, not a ~40 MiB node process', async () => {
    const browser = fakeBrowser(false);
    browsers.push(browser);
    const profile = fakeProfile(root, 'sh');
    const watchdog = watchBrowser(browser.pid ?? 0, profile);
    const [argv] = await waitFor(
      () => {
        const found = commandLinesNaming(profile);
        return found.length > 0 && found;
      },
      5_000,
      'the watchdog process',
    );
    assert.equal(argv?.[0], '/bin/sh', argv?.join(' '));
    watchdog.release();
    await waitFor(() => !existsSync(profile), 10_000, 'the profile to be removed');
  });

  // Windows has no process groups: its variant stops the browser's main process, whose helpers follow.
  for (const [platform, target] of [
    ['linux', (pid: number) => -pid],
    ['win32', (pid: number) => pid],
  ] as const) {
    it(`(${platform} variant) stops the browser and removes its profile when its pipe closes`, async () => {
      const browser = fakeBrowser(false);
      browsers.push(browser);
      const pid = browser.pid ?? 0;
      const profile = fakeProfile(root, platform);
      watchBrowser(pid, profile, platform).release();
      await waitFor(() => !alive(target(pid)), 10_000, `the browser (${target(pid)}) to stop`);
      await waitFor(() => !existsSync(profile), 10_000, 'the profile to be removed');
    });
  }

  it('kills a browser that ignores SIGTERM after the grace, then removes its profile', async () => {
    const browser = fakeBrowser(true);
    browsers.push(browser);
    const pid = browser.pid ?? 0;
    const profile = fakeProfile(root, 'deaf');
    watchBrowser(pid, profile, process.platform, 300).release();
    await waitFor(() => !groupAlive(pid), 15_000, `the browser (group ${pid}) to be killed`);
    await waitFor(() => !existsSync(profile), 10_000, 'the profile to be removed');
  });
});
