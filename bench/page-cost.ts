// Issue 40: what tabmcp costs the pages a person browses while no agent is connected. Each row is
// measured in headless Chromium three ways: with no extension, with the bare floor extension
// (bench/floor-extension: a worker and a content script that opens a Port, nothing else), and with
// the built tabmcp extension with no tabmcp server running. Script and task time come from CDP's
// Performance.getMetrics (ScriptDuration, TaskDuration: every world of the page's renderer, content
// scripts included). Bars: tabmcp adds at most 10 ms of script to the 10,000-element load, and is
// at most 1.1× the floor extension on the other rows. Build first: `node scripts/build.mjs`.
// Run: npx tsx bench/page-cost.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { repoRoot } from '../test-support/paths';
import { iterations, QUICK } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { median, type Summary, summarize } from './lib/stats';

/** Runs of each row per browser; the short rows get more, their figures being the noisiest on a shared machine. */
const RUNS = Number(process.env.PAGE_COST_RUNS ?? iterations(5, 1));
const SHORT_RUNS = Number(process.env.PAGE_COST_RUNS ?? iterations(15, 1));
const IDLE_MS = QUICK ? 1_000 : 5_000;
const TIMERS = 20_000;
/** What content scripts at document_idle do is part of a load: read after it, not at the load event. */
const AFTER_LOAD_MS = QUICK ? 300 : 1_000;
const LOAD_SCRIPT_BAR_MS = 10;
const RATIO_BAR = 1.1;

/** 2,500 rows of a checkbox, a text field, a link and a button: 10,000 interactive elements, no script of its own. */
function largePage(): string {
  const row = (i: number) =>
    `<tr><td><input type="checkbox" aria-label="Pick ${i}"></td><td><input aria-label="Note ${i}"></td><td><a href="#r${i}">Item ${i}</a></td><td><button type="button">Delete</button></td></tr>`;
  return `<!doctype html><title>Large</title><h1>Scale</h1><table><tbody>${Array.from({ length: 2_500 }, (_, i) => row(i)).join('')}</tbody></table>`;
}

/** A page that re-renders a list of 100 rows every 16 ms, as a live dashboard does. */
const RENDERING_PAGE = `<!doctype html><title>Live</title><ul id="list"></ul><script>
  const list = document.getElementById('list');
  let tick = 0;
  setInterval(() => {
    tick++;
    list.innerHTML = Array.from({ length: 100 }, (_, i) => '<li><button>Row ' + i + ' at ' + tick + '</button></li>').join('');
  }, 16);
</script>`;

const PAGES: Record<string, string> = {
  '/large.html': largePage(),
  '/live.html': RENDERING_PAGE,
  '/blank.html': '<!doctype html><title>Timers</title>',
};

type Variant = 'none' | 'floor' | 'tabmcp';
const EXTENSIONS: Record<Variant, string | undefined> = {
  none: undefined,
  floor: join(repoRoot, 'bench', 'floor-extension'),
  // PAGE_COST_TABMCP_DIR: another build of the extension (an earlier commit's), to compare.
  tabmcp: process.env.PAGE_COST_TABMCP_DIR ?? join(repoRoot, 'packages', 'extension', 'dist'),
};

interface Samples {
  loadScript: number[];
  loadTask: number[];
  idleScript: number[];
  timers: number[];
}

/** The page's script and task time so far, in ms; counted from `Performance.enable` on, so enabled before the load. */
type Metrics = () => Promise<{ script: number; task: number }>;

async function counting(page: Page): Promise<Metrics> {
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  return async () => {
    const { metrics: list } = await session.send('Performance.getMetrics');
    const value = (name: string) => (list.find((metric) => metric.name === name)?.value ?? 0) * 1000;
    return { script: value('ScriptDuration'), task: value('TaskDuration') };
  };
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function loadCost(context: BrowserContext, origin: string, samples: Samples): Promise<void> {
  const page = await context.newPage();
  const metrics = await counting(page);
  const before = await metrics();
  await page.goto(`${origin}/large.html`, { waitUntil: 'load' });
  await pause(AFTER_LOAD_MS);
  const loaded = await metrics();
  samples.loadScript.push(loaded.script - before.script);
  samples.loadTask.push(loaded.task - before.task);
  await page.close();
}

async function idleCost(context: BrowserContext, origin: string, samples: Samples): Promise<void> {
  const page = await context.newPage();
  const metrics = await counting(page);
  await page.goto(`${origin}/live.html`, { waitUntil: 'load' });
  await pause(AFTER_LOAD_MS);
  const before = await metrics();
  await pause(IDLE_MS);
  const after = await metrics();
  samples.idleScript.push(after.script - before.script);
  await page.close();
}

async function timerCost(context: BrowserContext, origin: string, samples: Samples): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${origin}/blank.html`, { waitUntil: 'load' });
  await pause(AFTER_LOAD_MS);
  samples.timers.push(
    (await page.evaluate(`new Promise((done) => {
      const started = performance.now();
      let left = ${TIMERS};
      const fired = () => { if (--left === 0) done(performance.now() - started); };
      for (let i = 0; i < ${TIMERS}; i++) setTimeout(fired, 0);
    })`)) as number,
  );
  await page.close();
}

async function launch(variant: Variant): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), `tabmcp-page-cost-${variant}-`));
  const extension = EXTENSIONS[variant];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs(extension ? { extensionDirs: [extension] } : {}),
  });
  // The extension's worker has started before anything is measured.
  if (extension && context.serviceWorkers().length === 0)
    await context.waitForEvent('serviceworker', { timeout: 15_000 }).catch(() => undefined);
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const server = createServer((request, response) => {
  const body = PAGES[request.url ?? ''];
  response.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
  response.end(body ?? '');
});
await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// The three browsers run side by side and take turns, in a rotating order, run after run: on a
// shared machine the load changes from minute to minute, and each row's three figures should meet the same.
const VARIANTS = ['none', 'floor', 'tabmcp'] as const;
const measured = {} as Record<Variant, Samples>;
const browsers = new Map<Variant, Awaited<ReturnType<typeof launch>>>();
try {
  for (const variant of VARIANTS) {
    browsers.set(variant, await launch(variant));
    measured[variant] = { loadScript: [], loadTask: [], idleScript: [], timers: [] };
  }
  for (const [step, runs] of [
    [loadCost, SHORT_RUNS],
    [idleCost, RUNS],
    [timerCost, SHORT_RUNS],
  ] as const) {
    for (let run = 0; run < runs; run++) {
      for (let turn = 0; turn < VARIANTS.length; turn++) {
        const variant = VARIANTS[(run + turn) % VARIANTS.length] as Variant;
        await step((browsers.get(variant) as Awaited<ReturnType<typeof launch>>).context, origin, measured[variant]);
      }
    }
  }
} finally {
  for (const browser of browsers.values()) await browser.close();
  server.close();
}

const ROWS: Array<{ key: keyof Samples; name: string; meaning: string }> = [
  {
    key: 'loadScript',
    name: 'script time loading a page of 10,000 elements',
    meaning: 'ScriptDuration of the load, content scripts included',
  },
  { key: 'loadTask', name: 'main-thread task time for that load', meaning: 'TaskDuration of the load' },
  {
    key: 'idleScript',
    name: `script time over ${IDLE_MS / 1000} s idle on a page re-rendering every 16 ms`,
    meaning: 'ScriptDuration while the page renders on its own',
  },
  {
    key: 'timers',
    name: `${TIMERS.toLocaleString('en')} setTimeout(0) firing`,
    meaning: 'wall time in the page until the last fired',
  },
];

const rows: Record<string, Record<Variant, Summary>> = {};
const figures: Figure[] = [];
let pass = true;
for (const { key, name, meaning } of ROWS) {
  const p50 = (variant: Variant) => Math.round(median(measured[variant][key]) * 10) / 10;
  rows[key] = {
    none: summarize(measured.none[key]),
    floor: summarize(measured.floor[key]),
    tabmcp: summarize(measured.tabmcp[key]),
  };
  const ours = p50('tabmcp');
  const floor = p50('floor');
  const none = p50('none');
  const loadRow = key === 'loadScript';
  const rowPass = loadRow ? ours - none <= LOAD_SCRIPT_BAR_MS : ours <= floor * RATIO_BAR;
  pass &&= rowPass;
  figures.push({
    name: `page cost, no agent connected: ${name}`,
    value: ours,
    unit: 'ms',
    beside: loadRow ? { label: 'no extension', value: none } : { label: 'floor extension', value: floor },
    bar: loadRow ? `≤ ${LOAD_SCRIPT_BAR_MS} ms more than no extension` : `≤ ${RATIO_BAR}× the floor extension`,
    pass: rowPass,
    meaning: `${meaning}; p50 of ${measured.tabmcp[key].length}: no extension ${none} ms, floor extension ${floor} ms (ratio ${ratio(ours, floor)})`,
  });
  console.log(
    `${name.padEnd(62)} tabmcp ${String(ours).padStart(7)} ms   floor extension ${String(floor).padStart(7)} ms   no extension ${String(none).padStart(7)} ms   ${rowPass ? 'PASS' : 'FAIL'}`,
  );
}
const file = writeResult('page-cost', {
  name: 'page-cost',
  machine: machine(),
  runs: { load: SHORT_RUNS, idle: RUNS, timers: SHORT_RUNS },
  idleMs: IDLE_MS,
  rows,
  bar: `no agent connected: ≤ ${LOAD_SCRIPT_BAR_MS} ms more script on the 10,000-element load than no extension, ≤ ${RATIO_BAR}× the floor extension on the other rows`,
  pass,
  figures,
});
console.log(`bar: ${pass ? 'PASS' : 'FAIL'}\nwrote ${file}`);
if (!pass && !QUICK) process.exitCode = 1;
