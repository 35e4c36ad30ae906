import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs } from '../../packages/server/src/launcher/chromium-args';
import { devtoolsPortOf } from '../../test-support/cdp';
import { repoRoot } from '../../test-support/paths';
import { type StdioMcp, startStdioMcp } from '../../test-support/stdio-client';

interface DevtoolsChromium {
  /** `http://127.0.0.1:<port>`, for a server that attaches to a running browser. */
  url: string;
  port: string;
  close(): Promise<void>;
}

/** A headless Chromium with a DevTools port, for the servers that attach to a running browser. */
async function devtoolsChromium(): Promise<DevtoolsChromium> {
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

export interface PeerOnChromium {
  mcp: StdioMcp;
  chrome: DevtoolsChromium;
  /** Its working directory (where it writes its files, and the root it reads files from). */
  workDir: string;
  close(): Promise<void>;
}

/** A peer MCP server from node_modules, attached over CDP to its own headless Chromium, never reaching the network. */
export async function startPeerOnChromium(
  script: string,
  args: (cdpUrl: string) => string[],
  clientName: string,
): Promise<PeerOnChromium> {
  const chrome = await devtoolsChromium();
  const workDir = mkdtempSync(join(tmpdir(), 'tabmcp-bench-peer-'));
  const mcp = await startStdioMcp({
    args: [join(repoRoot, 'node_modules', script), ...args(chrome.url)],
    cwd: workDir,
    env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1', CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' },
    clientName,
  });
  return {
    mcp,
    chrome,
    workDir,
    close: async () => {
      await mcp.close().catch(() => {});
      await chrome.close();
      rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
