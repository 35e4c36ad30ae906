import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';

export interface ExtensionToLoad {
  dir: string;
  /** Written as config.json into the copy, as tabmcp's own launcher does. */
  config: Record<string, unknown>;
}

export interface LaunchedChromium {
  pid: number;
  /** Where `--remote-debugging-port=0` (in `extraArgs`) writes DevToolsActivePort (test-support/cdp.ts). */
  profileDir: string;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile (in `profileRoot`) with copies of the given unpacked extensions. */
export async function launchChromium(
  extensions: ExtensionToLoad[],
  startUrl = 'about:blank',
  profileRoot = tmpdir(),
  extraArgs: string[] = [],
): Promise<LaunchedChromium> {
  const profileDir = mkdtempSync(join(profileRoot, 'tabmcp-bench-profile-'));
  const dirs = extensions.map((extension, index) => {
    const copy = join(profileDir, `extension-${index}`);
    cpSync(extension.dir, copy, { recursive: true });
    writeFileSync(join(copy, 'config.json'), JSON.stringify(extension.config));
    return copy;
  });
  mkdirSync(join(profileDir, 'Default'), { recursive: true });
  writeFileSync(
    join(profileDir, 'Default', 'Preferences'),
    JSON.stringify({ extensions: { ui: { developer_mode: true } } }),
  );
  const args = [...chromiumArgs({ headless: true, profileDir, extensionDirs: dirs }), ...extraArgs, startUrl];
  const child: ChildProcess = spawn('/usr/bin/chromium', args, { detached: true, stdio: 'ignore' });
  await new Promise<void>((done, fail) => {
    child.once('spawn', done);
    child.once('error', fail);
  });
  const pid = child.pid ?? 0;
  return {
    pid,
    profileDir,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        try {
          process.kill(-pid, 'SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
        await Promise.race([exited, new Promise((done) => setTimeout(done, 3_000))]);
      }
      rmSync(profileDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
