import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import type { BrowserContext } from 'playwright-core';
import { launchWithExtension } from '../test-support/extension-browser';
import { repoRoot, serverBin, textOf, waitFor } from '../test-support/harness';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

/**
 * Pairing a browser the person runs themselves (not --launch): `tabmcp pair` prints port and token,
 * the extension's options page takes them, and the agent's connect_browser finds that browser.
 */
describe('pairing your own Chrome through the options page', () => {
  let machine: Machine;
  let agent: Agent;
  let context: BrowserContext;
  let profile: string;

  before(async () => {
    machine = await newMachine();
    agent = await startAgent(machine);
    profile = mkdtempSync(join(tmpdir(), 'tabmcp-own-chrome-'));
    // The extension as a person loads it: the plain build, which knows no token.
    const extension = join(profile, 'extension');
    cpSync(join(repoRoot, 'packages', 'extension', 'dist'), extension, { recursive: true });
    context = await launchWithExtension(join(profile, 'user-data'), extension);
  });

  after(async () => {
    await context?.close().catch(() => {});
    await agent?.close();
    machine?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('an unpaired browser is not found; pasting what `tabmcp pair` prints pairs it', async () => {
    const unpaired = await agent.call('connect_browser');
    assert.equal(unpaired.isError, true);
    assert.match(textOf(unpaired), /No browser found/);

    const printed = execFileSync(process.execPath, [serverBin, 'pair', '--port', String(machine.port)], {
      env: { ...process.env, TABMCP_HOME: machine.home },
      encoding: 'utf8',
    });
    const port = /Port: +(\d+)/.exec(printed)?.[1];
    const token = /Token: +(\S+)/.exec(printed)?.[1];
    assert.equal(port, String(machine.port));
    assert.ok(token && token.length >= 16, printed);

    const options = await context.newPage();
    await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    await options.fill('#port', port);
    await options.fill('#token', token);
    await options.click('button[type=submit]');
    await waitFor(
      async () => /^Connected to ws:\/\/127\.0\.0\.1/.test((await options.textContent('#status')) ?? ''),
      15_000,
      'the options page to show the link',
    );

    const connected = await agent.call('connect_browser');
    assert.notEqual(connected.isError, true, textOf(connected));
    assert.match(textOf(connected), /"connected":true/);
  });

  it('forgetting the pairing ends the link in order: the agent is told at once', async () => {
    const changed = agent.nextListChanged();
    const options = await context.newPage();
    await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    await options.click('#forget');
    await changed;
    assert.deepEqual(await agent.toolNames(), ['connect_browser']);
    // The extension's `disconnected` message, not a socket that merely closed.
    assert.match(agent.stderr(), /"event":"link.down","reason":"The browser extension ended the link/);
    await options.close();
  });
});
