// Issue 4, the hub at scale, in real Chromium through the built tabmcp (--view all) and the MCP SDK client:
// (1) time from a page registering 10, 100 and 1,000 tools to seeing them in tools/list, beside the floor
//     of one page evaluation plus one tools/list of the same size; bar: 10 tools under 20 ms;
// (2) the cost of a hub-routed call (website_tool_<domain>_tab1_whoami) as the tab count grows to 50,
//     beside the focused-view call of the same tool in the same run. The all view lists page tools
//     only under their hub names, so the focused call goes to a second tabmcp in the default view,
//     with its own browser holding as many tabs; blocks of the two alternate.
// Run: npx tsx bench/hub-scale.ts
import type { Page } from 'playwright-core';
import { startTabmcp, type TabmcpUnderTest, textOf } from '../test-support/harness';
import { startHubSite } from '../test-support/hub-fixture';
import { iterations, QUICK } from './lib/quick';
import { machine, ratio, writeResult } from './lib/results';
import { formatRow, type Summary, summarize, timeEach } from './lib/stats';

const SIZES = [10, 100, 1_000];
const REPEATS: Record<number, number> = QUICK ? { 10: 2, 100: 2, 1000: 1 } : { 10: 15, 100: 10, 1000: 5 };
const TAB_COUNTS = QUICK ? [1, 5] : [1, 10, 50];
const CALLS = Number(process.env.BENCH_CALLS ?? iterations(300, 20));
const WARMUP = iterations(50, 5);
const BLOCK = iterations(50, 10);
/** The content script sends the first change at once, then at most one every 500 ms: stay quiet between samples. */
const QUIET_MS = 600;
const BAR_10_TOOLS_MS = 20;
/** However loaded the machine, 1,000 tools show in tools/list well within this. */
const SEEN_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const site = await startHubSite();
const tabmcp = await startTabmcp(['--view', 'all']);
const focusedTabmcp = await startTabmcp();
const domain = `127_0_0_1_${new URL(site.url('127.0.0.1')).port}`;
const registration: Record<string, { seen: Summary; floor: Summary; ratio: number }> = {};
const calls: Record<string, { hub: Summary; focused: Summary; ratio: number }> = {};
/** Measured calls must succeed: an error answer is fast and would pass for a good figure. */
async function callOk(agent: TabmcpUnderTest, name: string, args: Record<string, unknown> = {}) {
  const result = await agent.call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}

/** Connects `agent`'s own launched browser and opens the first bench tab; returns its id. */
async function firstTab(agent: TabmcpUnderTest): Promise<number> {
  await callOk(agent, 'connect_browser', { launch: true });
  const opened = await callOk(agent, 'open_tab', { url: `${site.url('127.0.0.1')}/notes.html?label=bench` });
  return (opened.structuredContent as { tab: { id: number } }).tab.id;
}

try {
  const tabId = await firstTab(tabmcp);
  const focusedTabId = await firstTab(focusedTabmcp);
  const browser = await tabmcp.cdp();
  const page = browser
    .contexts()
    .flatMap((context) => context.pages())
    .find((candidate) => candidate.url().includes('label=bench')) as Page;

  // (1) registration → tools/list
  for (const size of SIZES) {
    const seen: number[] = [];
    const floor: number[] = [];
    for (let run = 0; run < (REPEATS[size] ?? 5); run++) {
      const prefix = `b${size}r${run}`;
      const last = `${prefix}_${size - 1}`;
      const hubName = `website_tool_${domain}_tab1_${last}`;
      await sleep(QUIET_MS);
      const started = performance.now();
      await page.evaluate(
        ([count, name]) => (window as unknown as { addMany(n: number, p: string): void }).addMany(count, name),
        [size, prefix] as const,
      );
      // Polled without a pause: a sleep between polls would be measured too.
      while (!(await tabmcp.client.listTools()).tools.some((tool) => tool.name === hubName)) {
        if (performance.now() - started > SEEN_TIMEOUT_MS)
          throw new Error(`${hubName} did not show in tools/list within ${SEEN_TIMEOUT_MS} ms`);
      }
      seen.push(performance.now() - started);
      const floorStarted = performance.now();
      await page.evaluate(() => 0);
      await tabmcp.client.listTools();
      floor.push(performance.now() - floorStarted);
      await sleep(QUIET_MS);
      await page.evaluate(() => (window as unknown as { removeMany(): void }).removeMany());
    }
    const seenSummary = summarize(seen);
    const floorSummary = summarize(floor);
    registration[size] = { seen: seenSummary, floor: floorSummary, ratio: ratio(seenSummary.p50, floorSummary.p50) };
    console.log(formatRow(`register ${size} tools → in tools/list under its hub name`, seenSummary));
    console.log(formatRow(`  floor: page.evaluate + one tools/list of that size`, floorSummary));
  }
  await sleep(QUIET_MS);

  // (2) call cost as tabs grow
  let tabs = 1;
  for (const target of TAB_COUNTS) {
    for (; tabs < target; tabs++) {
      const url = `${site.url('127.0.0.1')}/notes.html?label=t${tabs}`;
      await callOk(tabmcp, 'open_tab', { url, focus: false });
      await callOk(focusedTabmcp, 'open_tab', { url, focus: false });
    }
    await callOk(tabmcp, 'focus_tab', { tabId });
    await callOk(focusedTabmcp, 'focus_tab', { tabId: focusedTabId });
    const hubName = `website_tool_${domain}_tab1_whoami`;
    const hubCall = () => callOk(tabmcp, hubName);
    const focusedCall = () => callOk(focusedTabmcp, 'whoami');
    await timeEach(WARMUP, hubCall);
    await timeEach(WARMUP, focusedCall);
    const hub: number[] = [];
    const focused: number[] = [];
    for (let done = 0; done < CALLS; done += BLOCK) {
      hub.push(...(await timeEach(BLOCK, hubCall)));
      focused.push(...(await timeEach(BLOCK, focusedCall)));
    }
    const hubSummary = summarize(hub);
    const focusedSummary = summarize(focused);
    calls[target] = { hub: hubSummary, focused: focusedSummary, ratio: ratio(hubSummary.p50, focusedSummary.p50) };
    console.log(formatRow(`hub-routed call with ${target} tabs of the site open`, hubSummary));
    console.log(formatRow(`  floor: focused-view call of the same tool (second tabmcp)`, focusedSummary));
  }
} finally {
  await focusedTabmcp.close();
  await tabmcp.close();
  await site.close();
}

const ten = registration[10]?.seen.p50 ?? Number.NaN;
const growth = ratio(calls[50]?.hub.p50 ?? Number.NaN, calls[1]?.hub.p50 ?? Number.NaN);
const perTool = SIZES.map((size) => `${size}: ${((registration[size]?.seen.p50 ?? 0) / size).toFixed(3)} ms/tool`);
console.log(
  `10 tools visible in tools/list: p50 ${ten.toFixed(1)} ms (bar < ${BAR_10_TOOLS_MS} ms) ${ten < BAR_10_TOOLS_MS ? 'MET' : 'MISSED'}`,
);
console.log(`registration cost per tool (p50 / size): ${perTool.join(', ')}`);
console.log(
  `hub-routed call p50 with 50 tabs / with 1 tab: ${growth}×; hub/focused p50 ratios: ${TAB_COUNTS.map((count) => `${count} tabs ${calls[count]?.ratio}×`).join(', ')}`,
);
const file = writeResult('hub-scale', {
  machine: machine(),
  registration,
  calls,
  bars: { tenToolsMs: BAR_10_TOOLS_MS, tenToolsMet: ten < BAR_10_TOOLS_MS },
  medians: {
    tenToolsP50Ms: ten,
    registrationP50Ms: Object.fromEntries(SIZES.map((size) => [size, registration[size]?.seen.p50])),
    callGrowth50vs1: growth,
  },
});
console.log(`written ${file}`);
