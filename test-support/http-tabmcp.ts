import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { serverBin } from './paths';
import { type Machine, newMachine } from './server-harness';
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

/** What the tests of a describe block share: one `tabmcp --http` on a fresh machine, and the site they open. */
export interface HttpTabmcpForTests<Site, C> {
  readonly site: Site;
  /** The MCP endpoint. */
  readonly url: string;
  /** The header value the endpoint wants (the machine's bearer token). */
  readonly authorization: string;
  /** The clients the tests connected; each is closed after the block. */
  readonly clients: C[];
}

/** Registers the before/after hooks that start and stop an HttpTabmcpForTests and the clients put in it. */
export function httpTabmcpForTests<Site extends { close(): Promise<void> }, C extends { close(): Promise<void> }>(
  startSite: () => Promise<Site>,
): HttpTabmcpForTests<Site, C> {
  let site: Site | undefined;
  let machine: Machine | undefined;
  let tabmcp: HttpTabmcp | undefined;
  const clients: C[] = [];
  before(async () => {
    site = await startSite();
    machine = await newMachine();
    tabmcp = await startHttpTabmcp(machine);
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await tabmcp?.stop();
    await site?.close();
    machine?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('tabmcp --http starts in before(): use it inside a test');
    return value;
  };
  return {
    get site() {
      return started(site);
    },
    get url() {
      return started(tabmcp).url;
    },
    get authorization() {
      return `Bearer ${httpBearerToken(started(machine).token)}`;
    },
    clients,
  };
}
