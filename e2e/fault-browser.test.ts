import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BenchSite, startBenchSite } from '../bench/lib/bench-site';
import { startTabmcp, type TabmcpUnderTest, textOf, waitFor } from './harness';

describe('fault: the browser dies with a page tool call in flight', () => {
  let site: BenchSite;
  let tabmcp: TabmcpUnderTest;

  const launchedPids = () =>
    [...tabmcp.stderr().matchAll(/"event":"browser\.launched"[^\n]*"pid":(\d+)/g)].map((m) => Number(m[1]));

  before(async () => {
    site = await startBenchSite();
    tabmcp = await startTabmcp();
    const connected = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(connected.isError, true, textOf(connected));
    const opened = await tabmcp.call('open_tab', { url: `${site.url}/echo.html` });
    assert.notEqual(opened.isError, true, textOf(opened));
  });

  after(async () => {
    await tabmcp?.close();
    await site?.close();
  });

  it('answers the call at once, falls back to connect_browser, and launches again on request', async () => {
    const [pid] = launchedPids();
    assert.ok(pid, 'tabmcp logged the pid of the browser it launched');
    const inFlight = tabmcp.call('wait', { ms: 2_000 });
    await new Promise((done) => setTimeout(done, 300));
    const changed = tabmcp.nextListChanged();
    // The browser tabmcp started, and only it: its own process group.
    process.kill(-pid, 'SIGKILL');

    const result = await inFlight;
    assert.equal(result.isError, true, textOf(result));
    assert.match(textOf(result), /disconnected|closing|went away/i);
    assert.doesNotMatch(textOf(result), /timed out|timeout/i);
    await changed;
    await waitFor(
      async () => JSON.stringify(await tabmcp.toolNames()) === JSON.stringify(['connect_browser']),
      5_000,
      'the DISCONNECTED tool list',
    );
    const premature = await tabmcp.call('echo', { text: 'x' });
    assert.equal(premature.isError, true);

    // The link drops about 20 ms before Node reaps the killed browser; until then the launcher still
    // counts it as running and connect_browser would wait 20 s for it instead of launching (reported).
    await waitFor(() => tabmcp.stderr().includes('"event":"browser.exited"'), 5_000, 'the launcher to see the exit');

    const again = await tabmcp.call('connect_browser', { launch: true });
    assert.notEqual(again.isError, true, textOf(again));
    assert.equal(launchedPids().length, 2, 'a second browser was launched');
    const reopened = await tabmcp.call('open_tab', { url: `${site.url}/echo.html?again` });
    assert.notEqual(reopened.isError, true, textOf(reopened));
    const echoed = await tabmcp.call('echo', { text: 'after the crash' });
    assert.match(textOf(echoed), /after the crash/);
  });
});
