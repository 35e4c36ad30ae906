import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { installClaudeCode } from '../test-support/claude-cli';
import { freePort } from '../test-support/net';
import { serverBin } from '../test-support/paths';
import { waitFor } from '../test-support/wait';

/** The words of a printed shell line: spaces split, double quotes group (all the line uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

interface ClaudeHttpServer {
  type: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Issue 28, "HTTP that works as documented": `tabmcp --http` prints the Claude Code line with its
 * bearer header; that line, run as printed with Claude Code's own CLI (scratch HOME, no
 * credentials), gives a server `claude mcp list` shows Connected, and the configuration Claude Code
 * stored lists tabmcp's tools through the official MCP SDK client.
 */
describe('Claude Code: the printed `claude mcp add --transport http` line', () => {
  let scratch: string;
  let claude: string;
  let tabmcp: ChildProcess;
  let stdout = '';
  before(async () => {
    claude = installClaudeCode();
    scratch = mkdtempSync(join(tmpdir(), 'tabmcp-claude-http-'));
    tabmcp = spawn(
      process.execPath,
      [serverBin, '--http', '0', '--launch', '--headless', '--port', String(await freePort())],
      { env: { ...process.env, TABMCP_HOME: join(scratch, 'tabmcp-home') }, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    tabmcp.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
  });
  after(() => {
    tabmcp?.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  });

  it('connects as printed, and its stored configuration lists the tools', async () => {
    const line = await waitFor(
      () => /^\s*(claude mcp add --transport http .*)$/m.exec(stdout)?.[1],
      10_000,
      'the Claude Code line on stdout',
    );
    assert.match(line, /--header "Authorization: Bearer [0-9a-f]{64}"/);
    const home = join(scratch, 'home');
    const project = join(scratch, 'project');
    mkdirSync(home);
    mkdirSync(project);
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    const run = (...args: string[]) =>
      execFileSync(claude, args, { cwd: project, env, encoding: 'utf8', timeout: 60_000, stdio: 'pipe' });
    const [command, ...args] = shellWords(line);
    assert.equal(command, 'claude');
    run(...args);

    const listed = run('mcp', 'list');
    assert.match(listed, /^tabmcp: .*Connected/m, listed);

    const stored = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as {
      projects: Record<string, { mcpServers: Record<string, ClaudeHttpServer> }>;
    };
    const server = Object.values(stored.projects).find((entry) => entry.mcpServers?.tabmcp)?.mcpServers.tabmcp;
    assert.ok(server, JSON.stringify(stored.projects));
    assert.equal(server.type, 'http');
    const client = new Client({ name: 'tabmcp-claude-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((tool) => tool.name === 'connect_browser'),
        tools.map((tool) => tool.name).join(', '),
      );
    } finally {
      await client.close();
    }
  });
});
