import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { textOf, waitFor } from '../test-support/harness';
import {
  type Agent,
  browserOf,
  type Machine,
  newMachine,
  pageWithUrl,
  startAgent,
} from '../test-support/server-harness';

/**
 * Issue 7, "kill the server": the tabmcp process that owns the browser link dies without a word
 * (SIGKILL: no close frames, no goodbye to its peers) while another agent's tabmcp has page tool
 * calls in flight through it.
 */
describe('fault: the tabmcp that owns the browser link is killed with calls of a peer in flight', () => {
  let site: ExampleServer;
  let machine: Machine;
  let owner: Agent;
  let peer: Agent;
  let browser: Browser;

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    owner = await startAgent(machine);
    await waitFor(() => /"role":"owner"/.test(owner.stderr()), 5_000, 'the first tabmcp to own the port');
    peer = await startAgent(machine);
    await waitFor(() => /"role":"peer"/.test(peer.stderr()), 5_000, 'the second tabmcp to join as a peer');
    // The peer launches the browser, so the browser outlives the owner and the peer cleans it up.
    const launched = await peer.call('connect_browser', { launch: true });
    assert.notEqual(launched.isError, true, textOf(launched));
    await peer.json('open_tab', { url: `${site.url}/codehub/` });
    browser = await browserOf(peer);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await peer?.close().catch(() => {});
    await owner?.close().catch(() => {});
    await site?.close();
    machine?.close();
  });

  it("answers the peer's calls with a clear error; the peer takes the port and its next call works", async () => {
    // Two calls that would take 20 s each: their answers must come from the dead link, not from a timeout.
    const inFlight = [peer.call('run_checks', { ms: 20_000 }), peer.call('run_checks', { ms: 20_000 })];
    const page = await pageWithUrl(browser, '/codehub/');
    await waitFor(
      async () => (await page.textContent('#checks')) === 'checks running',
      10_000,
      'the calls to reach the page',
    );

    process.kill(owner.pid, 'SIGKILL');

    const results = await Promise.all(inFlight);
    for (const result of results) {
      assert.equal(result.isError, true, textOf(result));
      assert.match(textOf(result), /tabmcp process that shared the browser link exited/);
      assert.match(textOf(result), /reconnects by itself/);
      assert.doesNotMatch(textOf(result), /timed out|timeout|did not answer within/i);
    }

    // No hand restarts anything: the peer wins the port and the extension dials it again.
    await waitFor(() => /"role":"owner"/.test(peer.stderr()), 10_000, 'the peer to take the port over');
    await waitFor(
      async () => (await peer.toolNames()).includes('run_checks'),
      20_000,
      'the extension to reconnect to the new owner',
    );
    const tabs = await peer.json<{ focusedTabId: number | null; tabs: Array<{ url: string }> }>('list_tabs');
    assert.ok(
      tabs.tabs.some((tab) => tab.url.includes('/codehub/')),
      JSON.stringify(tabs),
    );
    assert.notEqual(tabs.focusedTabId, null, 'focus kept across the takeover');
    assert.match(textOf(await peer.call('run_checks', { ms: 0 })), /"passed":\s*true/);
  });
});
