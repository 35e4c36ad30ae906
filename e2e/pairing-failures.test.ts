import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { launchWithExtension } from '../test-support/extension-browser';
import { repoRoot, textOf, waitFor } from '../test-support/harness';
import { freePort } from '../test-support/net';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

/**
 * Issue 28: each way pairing fails is named, with its next step, where each party looks: the
 * agent's connect_browser answer, the server log, and the extension's options page and popup.
 * The browser is a person's own Chromium with the plain extension build (no token of its own).
 */
describe('pairing failures, named on every surface', () => {
  let machine: Machine;
  let agent: Agent;
  let context: BrowserContext;
  let profile: string;
  let options: Page;
  let popup: Page;
  let foreign: Server;

  /** What the extension would hold after its options page saved it. */
  const pairWith = (settings: { port: number; token?: string }) =>
    options.evaluate(async (stored) => {
      await chrome.storage.local.remove(['port', 'token']);
      await chrome.storage.local.set(stored);
    }, settings);
  const optionsSays = (pattern: RegExp, what: string) =>
    waitFor(async () => pattern.test((await options.textContent('#status')) ?? ''), 20_000, what);
  const popupSays = (pattern: RegExp, what: string) =>
    waitFor(async () => pattern.test((await popup.textContent('#advice-text')) ?? ''), 20_000, what);

  before(async () => {
    machine = await newMachine();
    agent = await startAgent(machine);
    profile = mkdtempSync(join(tmpdir(), 'tabmcp-pairing-failures-'));
    const extension = join(profile, 'extension');
    cpSync(join(repoRoot, 'packages', 'extension', 'dist'), extension, { recursive: true });
    context = await launchWithExtension(join(profile, 'user-data'), extension);
    options = await context.newPage();
    await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    popup = await context.newPage();
    await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
    foreign = createServer((_request, response) => response.end('{"apiVersion":"AnkiConnect v.6"}'));
    await new Promise<void>((listening) => foreign.listen(0, '127.0.0.1', () => listening()));
    // The server starts its link at the first session; the agent's first call is that.
    await agent.toolNames();
  });

  after(async () => {
    await context?.close().catch(() => {});
    await agent?.close();
    machine?.close();
    await new Promise((closed) => foreign?.close(closed));
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('not paired: the extension has no token', async () => {
    await pairWith({ port: machine.port });
    await waitFor(() => /"event":"link.refused".*"reason":"not paired"/.test(agent.stderr()), 20_000, 'the log');
    assert.match(agent.stderr(), /"reason":"not paired","fix":"The tabmcp extension is not paired.*tabmcp pair/);
    const answer = await agent.call('connect_browser');
    assert.equal(answer.isError, true);
    assert.match(textOf(answer), /not paired \(it has no pairing token\): run `npx -y tabmcp pair`/);
    await optionsSays(/^Not paired\. Run `npx -y tabmcp pair`/, 'the options page to say "not paired"');
    await popupSays(/^Not paired\. Run `npx -y tabmcp pair`/, 'the popup to say "not paired"');
    assert.equal(await popup.isVisible('#pair'), true, 'the popup offers a way to pairing');
  });

  it('wrong token: the extension holds another one', async () => {
    await pairWith({ port: machine.port, token: 'not-the-token-of-this-server-0123' });
    await waitFor(() => /"reason":"wrong pairing token"/.test(agent.stderr()), 20_000, 'the log');
    assert.match(
      agent.stderr(),
      /"reason":"wrong pairing token","fix":"The tabmcp extension holds another pairing token/,
    );
    const answer = await agent.call('connect_browser');
    assert.match(textOf(answer), /holds another pairing token than this server: run `npx -y tabmcp pair`/);
    await optionsSays(/holds another pairing token\. Run `npx -y tabmcp pair` again/, 'the options page: wrong token');
    await popupSays(/holds another pairing token/, 'the popup: wrong token');
  });

  it('no server on that port', async () => {
    const nobody = await freePort();
    await pairWith({ port: nobody, token: machine.token });
    await optionsSays(
      new RegExp(`^No tabmcp server is running on port ${nobody}\\. Start your MCP client`),
      'no server',
    );
    await popupSays(new RegExp(`No tabmcp server is running on port ${nobody}`), 'the popup: no server');
  });

  it('a different program on that port', async () => {
    const address = foreign.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await pairWith({ port, token: machine.token });
    await optionsSays(
      new RegExp(`^Port ${port} is held by another program, not tabmcp\\. Start tabmcp with --port`),
      'another program',
    );
    await popupSays(new RegExp(`Port ${port} is held by another program`), 'the popup: another program');
  });

  it('pairing right connects, and the advice goes away', async () => {
    await pairWith({ port: machine.port, token: machine.token });
    await optionsSays(/^Connected to ws:\/\/127\.0\.0\.1/, 'connected');
    await waitFor(async () => !(await popup.isVisible('#advice')), 10_000, 'the popup advice to go');
    const connected = await agent.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
  });
});
