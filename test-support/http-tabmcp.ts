import { spawn } from 'node:child_process';
import { serverBin } from './paths';
import type { Machine } from './server-harness';
import { waitFor } from './wait';

/** A built tabmcp serving Streamable HTTP on a free port, launching its own headless Chromium on first need. */
export interface HttpTabmcp {
  url: string;
  /** Everything it logged so far (stderr, one JSON line per event). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function startHttpTabmcp(machine: Machine): Promise<HttpTabmcp> {
  const child = spawn(
    process.execPath,
    [serverBin, '--http', '0', '--launch', '--headless', '--port', String(machine.port)],
    {
      env: { ...process.env, TABMCP_HOME: machine.home, TABMCP_TOKEN: machine.token },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await waitFor(
      () => /"event":"http.listening","url":"([^"]+)"/.exec(stderr)?.[1],
      10_000,
      'the HTTP port',
    );
    return { url, stderr: () => stderr, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
