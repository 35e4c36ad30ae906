import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageWithUrl } from '../test-support/cdp';
import { waitCallInFlight } from '../test-support/echo-page';
import { type TabmcpUnderTest, textOf, waitFor } from '../test-support/harness';
import { type LaunchedTabmcp, startLaunchedTabmcp } from '../test-support/launched-tabmcp';

describe('fault: the browser dies with a page tool call in flight', () => {
  let launched: LaunchedTabmcp;
  let tabmcp: TabmcpUnderTest;

  const launchedPids = () =>
    [...tabmcp.stderr().matchAll(/"event":"browser\.launched"[^\n]*"pid":(\d+)/g)].map((m) => Number(m[1]));

  before(async () => {
    launched = await startLaunchedTabmcp();
    tabmcp = launched.tabmcp;
    await launched.openEchoTab();
  });

  after(() => launched?.close());

  it('answers the call at once, falls back to connect_browser, and launches again on request', async () => {
    const [pid] = launchedPids();
    assert.ok(pid, 'tabmcp logged the pid of the browser it launched');
    const { call: inFlight } = await waitCallInFlight(tabmcp, await pageWithUrl(await tabmcp.cdp(), '/echo.html'));
    const changed = tabmcp.nextListChanged();
    // The browser tabmcp started, and only it: its own process group.
    process.kill(-pid, 'SIGKILL');

    const result = await inFlight;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /disconnected|closing|went away/i);
    assert.doesNotMatch(textOf(result), /timed out|timeout/i);
    await changed;
    // At once, while Node has likely not reaped the killed browser yet (the link drops about 20 ms
    // earlier): the launcher must not take the dying browser for a live one.
    const relaunch = tabmcp.call('connect_browser', { launch: true });
    // Chromium takes far longer to start than these checks: the session is still DISCONNECTED.
    await waitFor(
      async () => JSON.stringify(await tabmcp.toolNames()) === JSON.stringify(['connect_browser']),
      5_000,
      'the DISCONNECTED tool list',
    );
    const premature = await tabmcp.call('echo', { text: 'x' });
    assert.equal(premature.isError, true);

    const again = await relaunch;
    assert.notEqual(again.isError, true, textOf(again));
    assert.equal(launchedPids().length, 2, 'a second browser was launched');
    await launched.openEchoTab('again');
    const echoed = await tabmcp.call('echo', { text: 'after the crash' });
    assert.match(textOf(echoed), /after the crash/);
  });
});
