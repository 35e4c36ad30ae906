import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installClaudeCode } from '../test-support/claude-cli';
import { freePort } from '../test-support/net';
import { serverBin } from '../test-support/paths';

/**
 * Issue 11, "what must be shown": Claude Code's CLI, with a scratch HOME and no credentials, adds
 * tabmcp with --launch and its health check (`claude mcp list`) shows it Connected, without a
 * browser being started: CHROME_PATH is a wrapper that leaves a mark before it runs Chromium.
 */
describe('Claude Code: claude mcp add, then claude mcp list', () => {
  let scratch: string;
  let claude: string;
  before(() => {
    claude = installClaudeCode();
    scratch = mkdtempSync(join(tmpdir(), 'tabmcp-claude-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('shows tabmcp Connected and starts no browser', async () => {
    const home = join(scratch, 'home');
    const project = join(scratch, 'project');
    mkdirSync(home);
    mkdirSync(project);
    const mark = join(scratch, 'browser-started');
    const browser = join(scratch, 'chromium');
    writeFileSync(browser, `#!/bin/sh\ntouch '${mark}'\nexec /usr/bin/chromium "$@"\n`);
    chmodSync(browser, 0o755);
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    const run = (...args: string[]) =>
      execFileSync(claude, args, { cwd: project, env, encoding: 'utf8', timeout: 60_000, stdio: 'pipe' });

    run(
      'mcp',
      'add',
      'tabmcp',
      '-e',
      `TABMCP_HOME=${join(scratch, 'tabmcp-home')}`,
      '-e',
      `CHROME_PATH=${browser}`,
      '--',
      process.execPath,
      serverBin,
      '--launch',
      '--headless',
      '--port',
      String(await freePort()),
    );
    const listed = run('mcp', 'list');
    assert.match(listed, /^tabmcp: .*Connected/m, listed);
    assert.equal(existsSync(mark), false, 'claude mcp list started a browser');
  });
});
