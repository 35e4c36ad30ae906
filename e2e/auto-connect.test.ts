import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { type BenchSite, startBenchSite } from '../test-support/bench-site';
import { launchWithExtension } from '../test-support/extension-browser';
import { repoRoot } from '../test-support/paths';
import { textOf } from '../test-support/results';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

/**
 * Issue 11, item 4: a client that starts a new tabmcp per call (the Inspector CLI does) can list
 * tabs and call page tools. One tabmcp owns the browser; each one-shot process runs with
 * --auto-connect, joins it as a peer, and its very first tools/list already has the tab tools and
 * the page's tool (under its hub name: a fresh process has no focused tab).
 */
describe('--auto-connect: one process per call', () => {
  let site: BenchSite;
  let machine: Machine;
  let owner: Agent;

  before(async () => {
    site = await startBenchSite();
    machine = await newMachine();
    owner = await startAgent(machine, ['--launch']);
    await owner.json('connect_browser');
    await owner.json('open_tab', { url: `${site.url}/echo.html` });
  });

  after(async () => {
    await owner?.close();
    await site?.close();
    machine?.close();
  });

  /** initialize → tools/list → tools/call → exit, as a one-shot client does. */
  async function oneShot(call: (tools: string[], agent: Agent) => Promise<string>): Promise<string> {
    const agent = await startAgent(machine, ['--auto-connect']);
    try {
      const tools = await agent.toolNames();
      const text = await call(tools, agent);
      assert.doesNotMatch(agent.stderr(), /"event":"browser.launched"/, 'a one-shot process launches nothing');
      return text;
    } finally {
      await agent.close();
    }
  }

  it('a one-shot process lists the tabs', async () => {
    const text = await oneShot(async (tools, agent) => {
      assert.ok(tools.includes('list_tabs') && tools.includes('open_tab'), tools.join(', '));
      const listed = await agent.call('list_tabs');
      assert.notEqual(listed.isError, true, textOf(listed));
      return textOf(listed);
    });
    assert.match(text, /echo\.html/);
  });

  it('another one-shot process calls the page tool', async () => {
    const text = await oneShot(async (tools, agent) => {
      const echo = tools.find((name) => /^website_tool_.*_echo$/.test(name));
      assert.ok(echo, `no page tool in the first tools/list: ${tools.join(', ')}`);
      const result = await agent.call(echo, { text: 'one shot' });
      assert.notEqual(result.isError, true, textOf(result));
      return textOf(result);
    });
    assert.match(text, /one shot/);
  });
});

/**
 * No long-lived tabmcp: the user's own paired browser, and one-shot processes that each own the
 * port in turn. The extension dials again with a backoff of up to 5 s; each process waits for it.
 */
describe('--auto-connect with a paired browser and no other tabmcp', () => {
  let machine: Machine;
  let profile: string;
  let context: BrowserContext;

  before(async () => {
    machine = await newMachine();
    profile = mkdtempSync(join(tmpdir(), 'tabmcp-own-chrome-'));
    const extension = join(profile, 'extension');
    cpSync(join(repoRoot, 'packages', 'extension', 'dist'), extension, { recursive: true });
    // Paired as the options page would pair it (e2e/server-pairing.test.ts does it through the page).
    writeFileSync(join(extension, 'config.json'), JSON.stringify({ port: machine.port, token: machine.token }));
    context = await launchWithExtension(join(profile, 'user-data'), extension);
  });

  after(async () => {
    await context?.close().catch(() => {});
    machine?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('each one-shot process owns the port, and the browser dials in before its first tools/list answers', async () => {
    for (const round of [1, 2]) {
      const agent = await startAgent(machine, ['--auto-connect']);
      try {
        const tools = await agent.toolNames();
        assert.ok(tools.includes('list_tabs'), `round ${round}: ${tools.join(', ')}\n${agent.stderr()}`);
        assert.match(agent.stderr(), /"role":"owner"/);
      } finally {
        await agent.close();
      }
    }
  });
});
