import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import { pageWithUrl } from '../test-support/cdp';
import { waitCallInFlight } from '../test-support/echo-page';
import { type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';
import { type LaunchedTabmcp, startLaunchedTabmcp } from '../test-support/launched-tabmcp';

describe('fault: the extension worker dies while a page tool call is in flight', () => {
  let launched: LaunchedTabmcp;
  let tabmcp: TabmcpUnderTest;

  before(async () => {
    launched = await startLaunchedTabmcp();
    tabmcp = launched.tabmcp;
    await launched.openEchoTab();
    assert.ok((await tabmcp.toolNames()).includes('wait'));
  });

  after(() => launched?.close());

  it('answers the call with a clear error, announces the change and recovers by itself', async () => {
    const browser = await tabmcp.cdp();
    const listChangedBefore = tabmcp.listChangedCount();
    const changed = tabmcp.nextListChanged(10_000);
    // The tool answers only after 2 s: once the page has begun it, the call is still waiting there.
    const { call: inFlight } = await waitCallInFlight(tabmcp, await pageWithUrl(browser, '/echo.html'));

    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find(
      (target) => target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
    );
    assert.ok(worker, `tabmcp's worker is running: ${targetInfos.map((target) => target.url).join(', ')}`);
    await cdp.send('Target.closeTarget', { targetId: worker.targetId });
    await cdp.detach();

    const result = await inFlight;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /disconnected/i);
    assert.doesNotMatch(textOf(result), /timed out|timeout/i);

    await changed;
    await waitFor(() => /"event":"link\.down"/.test(tabmcp.stderr()), 5_000, 'the server to log the link going down');

    // Nobody restarts anything: the content script's Port wakes the worker, which dials back in.
    await waitFor(async () => (await tabmcp.toolNames()).includes('echo'), 20_000, 'the page tools to come back');
    assert.ok(tabmcp.listChangedCount() >= listChangedBefore + 2, 'list_changed for the loss and for the recovery');
    const echoed = await tabmcp.call('echo', { text: 'after the fault' });
    assert.notEqual(echoed.isError, true, textOf(echoed));
    assert.match(textOf(echoed), /after the fault/);
  });
});
