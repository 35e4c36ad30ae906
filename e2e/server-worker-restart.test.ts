import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, CDPSession } from 'playwright-core';
import type { ExampleServer } from '../examples/serve';
import { textOf, waitFor } from '../test-support/harness';
import { type Agent, type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/** Stops the extension's MV3 worker as Chrome does when it idles out (not a browser restart). */
async function stopExtensionWorker(cdp: CDPSession): Promise<void> {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const worker = targetInfos.find((target) => target.type === 'service_worker');
  assert.ok(worker, 'the extension worker is running');
  await cdp.send('Target.closeTarget', { targetId: worker.targetId });
}

describe('the extension worker stopped and restarted mid-session', () => {
  let scene: LaunchedScene;
  let site: ExampleServer;
  let agent: Agent;
  let browser: Browser;
  let cdp: CDPSession;

  before(async () => {
    scene = await startLaunchedScene();
    ({ site, agent, browser } = scene);
    await agent.json('open_tab', { url: `${site.url}/codehub/` });
    cdp = await browser.newBrowserCDPSession();
  });

  after(() => scene?.close());

  it('answers the call in flight at once, goes DISCONNECTED with list_changed, and recovers by itself', async () => {
    const before = agent.listChangedCount();
    // A call that would take 20 s: its answer must come from the dropped link, not from a timeout.
    const inFlight = agent.call('run_checks', { ms: 20_000 });
    const page = await pageWithUrl(browser, '/codehub/');
    await waitFor(
      async () => (await page.textContent('#checks')) === 'checks running',
      10_000,
      'the call to reach the page',
    );
    await stopExtensionWorker(cdp);
    const result = await inFlight;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /The browser extension disconnected/);
    assert.match(textOf(result), /reconnects by itself/);
    assert.doesNotMatch(textOf(result), /did not answer within/);

    // DISCONNECTED was announced, then the restarted worker dialled in and the session reconnected.
    await waitFor(() => /"event":"link.recovered"/.test(agent.stderr()), 15_000, 'the session to recover');
    assert.ok(agent.listChangedCount() > before, 'list_changed announced the drop');
    await waitFor(async () => (await agent.toolNames()).includes('run_checks'), 10_000, 'page tools back');
    const tabs = await agent.json<{ focusedTabId: number | null; tabs: Array<{ url: string }> }>('list_tabs');
    assert.ok(tabs.tabs.some((tab) => tab.url.includes('/codehub/')));
    assert.notEqual(tabs.focusedTabId, null, 'focus kept across the restart');
    assert.match(textOf(await agent.call('run_checks', { ms: 0 })), /"passed":\s*true/);
  });

  it('survives a second restart in a row', async () => {
    const recoveries = (agent.stderr().match(/"event":"link.recovered"/g) ?? []).length;
    await stopExtensionWorker(cdp);
    await waitFor(
      () => (agent.stderr().match(/"event":"link.recovered"/g) ?? []).length > recoveries,
      15_000,
      'the second recovery',
    );
    await waitFor(async () => (await agent.toolNames()).includes('star_repo'), 10_000, 'page tools back');
    assert.match(textOf(await agent.call('star_repo')), /"starred":\s*true/);
  });
});
