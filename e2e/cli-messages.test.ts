import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpBearerToken } from '../packages/server/src/mcp/http-token';
import { freePort } from '../test-support/net';
import { serverBin } from '../test-support/paths';

/**
 * Issue 28: what the built `tabmcp` prints when the command line or the machine is not as it
 * needs: one line naming the cause and the next step, no 50-line help, no stack trace.
 */
describe('tabmcp on the command line', () => {
  let home: string;
  const tabmcp = (...args: string[]) =>
    spawnSync(process.execPath, [serverBin, ...args], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, TABMCP_HOME: home },
    });
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'tabmcp-cli-'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  for (const args of [['--bogus'], ['--port', 'abc'], ['serve-me']]) {
    it(`a usage error (${args.join(' ')}) is a short message that points to --help`, () => {
      const run = tabmcp(...args);
      assert.equal(run.status, 2);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 2, run.stderr);
      assert.match(lines[0] ?? '', /^tabmcp: /);
      assert.match(lines[1] ?? '', /tabmcp --help/);
      assert.doesNotMatch(run.stderr, /Usage:/);
    });
  }

  describe('a taken --http port', () => {
    let holder: Server;
    let port: number;
    before(async () => {
      port = await freePort();
      holder = createServer();
      await new Promise<void>((listening) => holder.listen(port, '127.0.0.1', listening));
    });
    after(() => holder.close());

    it('is one line with the cause and the next step, no stack trace', async () => {
      const run = tabmcp('--http', String(port), '--port', String(await freePort()), '--log-level', 'error');
      assert.equal(run.status, 1);
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`port ${port} \\(--http\\) is already in use by another program`));
      assert.match(run.stderr, /--http 0 for any free port/);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
    });
  });

  it('tabmcp pair --http PORT prints the client setup for that port, bearer header included', () => {
    const run = tabmcp('pair', '--http', '8771');
    assert.equal(run.status, 0, run.stderr);
    const token = /Token:\s+(\S+)/.exec(run.stdout)?.[1] ?? '';
    const header = `Authorization: Bearer ${httpBearerToken(token)}`;
    assert.ok(
      run.stdout.includes(`claude mcp add --transport http tabmcp http://127.0.0.1:8771/mcp --header "${header}"`),
      run.stdout,
    );
  });

  it('--help shows the bearer header of --http and does not promise every client a session', () => {
    const run = tabmcp('--help');
    assert.match(run.stdout, /Authorization: Bearer <token>/);
    assert.doesNotMatch(run.stdout, /every client gets its own session/);
  });
});
