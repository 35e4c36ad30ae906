// Issue 7: what an agent waits for one page-side call with tabmcp and with the tools people use
// today, on the same bench page, beside the floor measured in the same run. Run: npx tsx bench/rivals.ts

import { textOf } from '../test-support/results';
import { iterations } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { startRig } from './lib/rig';
import { DEVTOOLS_MCP, PLAYWRIGHT_MCP, type RivalProcess, startRival } from './lib/rival-client';
import { formatRow, type Summary, summarize, timeEach } from './lib/stats';
import { residentMiB } from './lib/tabmcp-client';

const CALLS = Number(process.env.BENCH_RIVAL_CALLS ?? iterations(200, 10));
const WARMUP = iterations(20, 2);
const EVALUATE = '() => window.benchEcho("x")';

interface Series extends Partial<Summary> {
  label: string;
  command?: string;
  samples?: number[];
  ratioToFloor?: { p50: number; p99: number };
  error?: string;
}

interface RivalVariant {
  key: string;
  label: string;
  script: string;
  args: string[];
  /** Opens the bench page and returns one evaluate call. */
  prepare(rival: RivalProcess, url: string): Promise<() => Promise<void>>;
}

async function playwrightPrepare(rival: RivalProcess, url: string) {
  await rival.call('browser_navigate', { url });
  return async () => {
    const result = await rival.call('browser_evaluate', { function: EVALUATE });
    if (!textOf(result).includes('"x"')) throw new Error(`unexpected browser_evaluate result: ${textOf(result)}`);
  };
}

function devtoolsPrepare(waitForStableDom: boolean) {
  return async (rival: RivalProcess, url: string) => {
    const listed = textOf(await rival.call('new_page', { url }));
    // list output names pages as "<id>: <url>"; take the one showing the bench page.
    const line = listed.split('\n').find((entry) => entry.includes(url));
    const pageId = Number(/(\d+):/.exec(line ?? '')?.[1]);
    if (!Number.isInteger(pageId)) throw new Error(`could not find the bench page id in: ${listed.slice(0, 500)}`);
    return async () => {
      const result = await rival.call('evaluate_script', {
        pageId,
        function: EVALUATE,
        ...(waitForStableDom ? {} : { waitForStableDom: false }),
      });
      if (!textOf(result).includes('"x"')) throw new Error(`unexpected evaluate_script result: ${textOf(result)}`);
    };
  };
}

const playwright = PLAYWRIGHT_MCP.script;
const devtools = DEVTOOLS_MCP.script;
const playwrightArgs = PLAYWRIGHT_MCP.args;
const devtoolsArgs = DEVTOOLS_MCP.args;

const variants: RivalVariant[] = [
  {
    key: 'playwrightDefault',
    label: 'Playwright MCP browser_evaluate (defaults)',
    script: playwright,
    args: playwrightArgs,
    prepare: playwrightPrepare,
  },
  {
    key: 'playwrightNoSettle',
    label: 'Playwright MCP browser_evaluate (--timeout-settle 0)',
    script: playwright,
    args: [...playwrightArgs, '--timeout-settle', '0'],
    prepare: playwrightPrepare,
  },
  {
    key: 'devtoolsDefault',
    label: 'chrome-devtools-mcp evaluate_script (defaults)',
    script: devtools,
    args: devtoolsArgs,
    prepare: devtoolsPrepare(true),
  },
  {
    key: 'devtoolsNoStableDom',
    label: 'chrome-devtools-mcp evaluate_script (waitForStableDom false)',
    script: devtools,
    args: devtoolsArgs,
    prepare: devtoolsPrepare(false),
  },
];

const series: Record<string, Series> = {};
/** Per server: process start to the bench page loaded, and its own resident memory after the calls. */
const footprint: Record<string, { label: string; startToPageMs?: number; residentMiB?: number }> = {};
const rig = await startRig();
try {
  await timeEach(WARMUP * 5, () => rig.floorRoundTrip());
  await timeEach(WARMUP * 5, () => rig.callEcho());
  const floor = await timeEach(CALLS, () => rig.floorRoundTrip());
  const tabmcp = await timeEach(CALLS, () => rig.callEcho());
  series.floor = {
    label: 'floor: Node → WS → worker → Port → content → page → back',
    ...summarize(floor),
    samples: floor,
  };
  series.tabmcp = { label: 'tabmcp tools/call of a page tool (stdio)', ...summarize(tabmcp), samples: tabmcp };
  footprint.tabmcp = { label: 'tabmcp (cold start: see tools-call.json)', residentMiB: residentMiB(rig.tabmcp.pid) };

  for (const variant of variants) {
    const command = `node node_modules/${variant.script} ${variant.args.join(' ')}`;
    let rival: RivalProcess | undefined;
    try {
      const started = performance.now();
      rival = await startRival(variant.script, variant.args);
      const once = await variant.prepare(rival, rig.pageUrl);
      const startToPageMs = Math.round(performance.now() - started);
      await timeEach(WARMUP, once);
      const samples = await timeEach(CALLS, once);
      series[variant.key] = { label: variant.label, command, ...summarize(samples), samples };
      footprint[variant.key] = { label: variant.label, startToPageMs, residentMiB: residentMiB(rival.pid) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      series[variant.key] = {
        label: variant.label,
        command,
        error: `${reason}\n${rival?.stderr().slice(-1000) ?? ''}`.trim(),
      };
    } finally {
      await rival?.close().catch(() => {});
    }
  }
} finally {
  await rig.close();
}

const floorSummary = series.floor as Series & Summary;
for (const entry of Object.values(series)) {
  if (entry.p50 !== undefined && entry.p99 !== undefined && entry !== floorSummary) {
    entry.ratioToFloor = { p50: ratio(entry.p50, floorSummary.p50), p99: ratio(entry.p99, floorSummary.p99) };
  }
  if (entry.samples) entry.samples = entry.samples.map((value) => Math.round(value * 1000) / 1000);
  if (entry.p50 !== undefined) {
    const times = entry.ratioToFloor ? `  (${entry.ratioToFloor.p50}× floor at p50)` : '';
    console.log(`${formatRow(entry.label, entry as Summary)}${times}`);
  } else {
    console.log(`${entry.label}: could not run: ${entry.error?.split('\n')[0]}`);
  }
}

const tabmcpSeries = series.tabmcp as Series & Summary;
const figures: Figure[] = Object.entries(series)
  .filter(([key]) => key !== 'floor' && key !== 'tabmcp')
  .flatMap(([, entry]) =>
    entry.p50 === undefined
      ? []
      : [
          {
            name: `${entry.label} p50`,
            value: entry.p50,
            unit: 'ms',
            beside: { label: 'tabmcp p50', value: tabmcpSeries.p50 },
            meaning: `${ratio(entry.p50, tabmcpSeries.p50)}× tabmcp's page tool call for the same page-side work.`,
          },
        ],
  );

for (const [key, entry] of Object.entries(footprint)) {
  if (key === 'tabmcp' || entry.residentMiB === undefined) continue;
  figures.push({
    name: `${entry.label}: server resident memory`,
    value: entry.residentMiB,
    unit: 'MiB',
    beside: { label: 'tabmcp', value: footprint.tabmcp?.residentMiB ?? Number.NaN },
    meaning: `The MCP server process alone (its browser not counted); process start to the bench page loaded took ${entry.startToPageMs} ms.`,
  });
}
for (const entry of Object.values(footprint)) {
  console.log(
    `${entry.label}: resident ${entry.residentMiB} MiB${entry.startToPageMs === undefined ? '' : `, start to page loaded ${entry.startToPageMs} ms`}`,
  );
}

const file = writeResult('rivals', {
  name: 'rivals',
  meaning: 'One page-side call (a page tool for tabmcp, an evaluate for the others) on the same bench page, same run.',
  machine: machine(),
  calls: CALLS,
  warmup: WARMUP,
  evaluate: EVALUATE,
  series,
  footprint,
  figures,
});
console.log(`wrote ${file}`);
