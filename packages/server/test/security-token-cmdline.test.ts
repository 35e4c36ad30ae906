import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { freePort } from '../../../test-support/net';
import { startTabmcpProcess } from '../../../test-support/tabmcp-process';
import { parseCliOptions } from '../src/options';

/**
 * Issue 26, low: `--token` showed the pairing token in /proc/<pid>/cmdline, which every local user
 * can read (the attacker: another user of the machine). The token comes from the environment now.
 */
describe('security: the token is never on the command line (issue 26)', () => {
  it('--token is refused with where the token goes now', () => {
    assert.throws(
      () => parseCliOptions(['--token', 'secret']),
      /--token is no longer accepted: a command line is visible to every user.*TABMCP_TOKEN=<token>.*--token-file/,
    );
  });

  it('TABMCP_TOKEN is the token, and a running tabmcp shows it nowhere in its command line', async () => {
    const previous = process.env.TABMCP_TOKEN;
    process.env.TABMCP_TOKEN = 'from-the-environment';
    try {
      assert.equal(parseCliOptions([]).token, 'from-the-environment');
    } finally {
      if (previous === undefined) delete process.env.TABMCP_TOKEN;
      else process.env.TABMCP_TOKEN = previous;
    }
    const token = 'cmdline-secret-0123456789abcdef';
    const tabmcp = await startTabmcpProcess({
      args: ['--port', String(await freePort()), '--browser', '/nonexistent/chromium'],
      env: { TABMCP_TOKEN: token },
      clientName: 'token-cmdline',
    });
    try {
      assert.ok(tabmcp.pid, 'the process has a pid');
      assert.doesNotMatch(readFileSync(`/proc/${tabmcp.pid}/cmdline`, 'utf8'), new RegExp(token));
      assert.ok((await tabmcp.toolNames()).includes('connect_browser'));
    } finally {
      await tabmcp.close();
    }
  });
});
