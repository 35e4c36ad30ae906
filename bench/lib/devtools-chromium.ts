import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs } from '../../packages/server/src/launcher/chromium-args';
import { devtoolsPortOf } from '../../test-support/cdp';

export interface DevtoolsChromium {
  /** `http://127.0.0.1:<port>`, for a server that attaches to a running browser. */
  url: string;
  port: string;
  close(): Promise<void>;
}

/** A headless Chromium with a DevTools port, for the servers that attach to a running browser. */
export async function devtoolsChromium(): Promise<DevtoolsChromium> {
  const profileDir = mkdtempSync(join(tmpdir(), 'tabmcp-bench-rival-'));
  const child: ChildProcess = spawn(
    '/usr/bin/chromium',
    [...chromiumArgs({ headless: true, profileDir }), '--remote-debugging-port=0', 'about:blank'],
    { stdio: 'ignore' },
  );
  const port = await devtoolsPortOf(profileDir, 15_000);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      // Chromium's helpers may still be writing the profile for a moment after it exits.
      await rm(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
    },
  };
}
