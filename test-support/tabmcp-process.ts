import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverBin } from './paths';
import { type StdioMcp, startStdioMcp } from './stdio-client';

export interface TabmcpProcessOptions {
  /** Arguments of tabmcp. */
  args: string[];
  /** Arguments of `node` itself, before the script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  env?: Record<string, string>;
  clientName: string;
  /** The `node` binary; this one by default. */
  node?: string;
}

/** The built `tabmcp` over stdio on a throwaway TABMCP_HOME, removed again on close. */
export async function startTabmcpProcess(options: TabmcpProcessOptions): Promise<StdioMcp> {
  const home = mkdtempSync(join(tmpdir(), 'tabmcp-home-'));
  const tabmcp = await startStdioMcp({
    args: [...(options.nodeArgs ?? []), serverBin, ...options.args],
    env: { ...options.env, TABMCP_HOME: home },
    clientName: options.clientName,
    node: options.node,
  }).catch((error: unknown) => {
    rmSync(home, { recursive: true, force: true });
    throw error;
  });
  return {
    ...tabmcp,
    close: async () => {
      await tabmcp.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
