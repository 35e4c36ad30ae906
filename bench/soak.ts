// Issue 7: does tabmcp leak or slow down over a long session? Mixed calls on 10 tabs of the demo
// sites (page tools, DOM-derived tools, open/focus/close cycles) for SOAK_MINUTES (default 30),
// sampling every SOAK_SAMPLE_SECONDS (default 60) the server's resident memory and the extension
// worker's JS heap (after a forced GC, over CDP). Writes bench/results/soak.json after every sample,
// so a soak cut short still leaves its figures. Run: SOAK_MINUTES=30 npx tsx bench/soak.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EXTENSION_ID } from '@tabmcp/protocol';
import WebSocket from 'ws';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';
import { iterations } from './lib/quick';
import { type Figure, machine, writeResult } from './lib/results';
import { type Summary, summarize } from './lib/stats';
import { bareNodeResidentMiB, residentMiB } from './lib/tabmcp-client';

const MINUTES = Number(process.env.SOAK_MINUTES ?? iterations(30, 0.5));
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? iterations(60, 10)) * 1000;
const WARMUP_SAMPLES = Number(process.env.SOAK_WARMUP_SAMPLES ?? iterations(2, 1));
const CALL_TIMEOUT_MS = 30_000;
/** Every this many rounds one tab is closed and opened again. */
const REOPEN_EVERY = 5;

type Call = [name: string, args: Record<string, unknown>];
interface SiteTab {
  path: string;
  /** What an agent does once the tab is focused; names are the page's own or DOM-derived tools. */
  calls: Call[];
  id?: number;
}

const FLIGHT = { from: 'SFO', to: 'NYC', departDate: '2024-01-19' };
const tabs: SiteTab[] = [
  {
    path: '/shop/',
    calls: [
      ['search_products', { query: 'tea' }],
      ['add_to_cart', { productId: 'p3' }],
      ['get_cart', {}],
    ],
  },
  { path: '/skyhop/', calls: [['search_flights', FLIGHT]] },
  {
    path: '/codehub/',
    calls: [
      ['view_issues', { state: 'all' }],
      ['star_repo', {}],
    ],
  },
  { path: '/farefinder/', calls: [['search_flights', FLIGHT]] },
  { path: '/plain/', calls: [['get_page_content', {}]] },
  {
    path: '/plain/about.html',
    calls: [
      ['show_history', {}],
      ['get_page_content', { maxChars: 2000 }],
    ],
  },
  { path: '/interop/hand-written.html', calls: [['increment', { by: 2 }]] },
  {
    path: '/interop/webmcp.html',
    calls: [
      ['add_note', { text: 'soak' }],
      ['count_notes', {}],
    ],
  },
  { path: '/real-world/rust-hashmap.html', calls: [['get_page_content', { maxChars: 4000 }]] },
  { path: '/real-world/underscore.html', calls: [['get_page_content', { maxChars: 4000, offset: 8000 }]] },
];

interface Minute {
  latencies: number[];
  errors: number;
  errorSamples: string[];
  byTool: Record<string, number>;
}
const newMinute = (): Minute => ({ latencies: [], errors: 0, errorSamples: [], byTool: {} });

interface Sample {
  minute: number;
  serverRssMiB: number;
  workerHeapMiB?: number;
  workerHeapAfterGcMiB?: number;
  workerHeapError?: string;
  openTabs: number;
  calls: number;
  errors: number;
  latency?: Pick<Summary, 'p50' | 'p99' | 'max'>;
  errorSamples: string[];
  byTool: Record<string, number>;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;

/** The launched browser's DevTools port, from the profile tabmcp logs (needs --remote-debugging-port=0). */
function devtoolsPort(tabmcp: StdioMcp): number | undefined {
  const profileDir = /"profileDir":"([^"]+)"/.exec(tabmcp.stderr())?.[1];
  if (!profileDir) return undefined;
  try {
    return Number(readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

/** The worker's JS heap before and after a forced GC, over a CDP socket opened for this sample only. */
async function workerHeap(port: number): Promise<{ used: number; afterGc: number }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    type: string;
    url: string;
    webSocketDebuggerUrl?: string;
  }>;
  const worker = targets.find(
    (target) => target.type === 'service_worker' && target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
  );
  if (!worker?.webSocketDebuggerUrl) throw new Error(`no tabmcp worker among ${targets.length} targets`);
  const socket = new WebSocket(worker.webSocketDebuggerUrl);
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  const send = (method: string) =>
    new Promise<Record<string, unknown>>((done, fail) => {
      const id = nextId++;
      const timer = setTimeout(() => fail(new Error(`${method} got no answer`)), 10_000);
      pending.set(id, (result) => {
        clearTimeout(timer);
        done(result);
      });
      socket.send(JSON.stringify({ id, method }));
    });
  try {
    await new Promise<void>((done, fail) => {
      socket.once('open', () => done());
      socket.once('error', fail);
    });
    const before = await send('Runtime.getHeapUsage');
    await send('HeapProfiler.collectGarbage');
    const after = await send('Runtime.getHeapUsage');
    return { used: Number(before.usedSize), afterGc: Number(after.usedSize) };
  } finally {
    socket.close();
  }
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const num = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const den = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return Math.round((num / den) * 1000) / 1000;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

let site: ExampleServer | undefined;
let tabmcp: StdioMcp | undefined;
const samples: Sample[] = [];
const allLatencies: number[] = [];
const totals = { calls: 0, errors: 0 };
let floorMiB = Number.NaN;
let idleMiB = Number.NaN;
const started = Date.now();

function report(complete: boolean): string {
  const afterWarmup = samples.slice(Math.min(WARMUP_SAMPLES, Math.max(0, samples.length - 1)));
  const first = afterWarmup[0];
  const last = afterWarmup[afterWarmup.length - 1];
  const growth = (pick: (sample: Sample) => number | undefined) => {
    const points = afterWarmup
      .map((sample) => [sample.minute, pick(sample)] as [number, number | undefined])
      .filter((point): point is [number, number] => typeof point[1] === 'number' && Number.isFinite(point[1]));
    const [firstPoint, lastPoint] = [points[0], points[points.length - 1]];
    return {
      first: firstPoint?.[1],
      last: lastPoint?.[1],
      growth: firstPoint && lastPoint ? round2(lastPoint[1] - firstPoint[1]) : undefined,
      slopePerMinute: slope(points),
    };
  };
  const rss = growth((sample) => sample.serverRssMiB);
  const heap = growth((sample) => sample.workerHeapAfterGcMiB);
  const figures: Figure[] = [];
  if (first && last && rss.growth !== undefined) {
    figures.push({
      name: 'tabmcp server resident memory, last sample',
      value: rss.last ?? Number.NaN,
      unit: 'MiB',
      beside: { label: `first sample after warm-up (minute ${first.minute})`, value: rss.first ?? Number.NaN },
      meaning: `Growth ${rss.growth} MiB over ${round2(last.minute - first.minute)} min, slope ${rss.slopePerMinute} MiB/min (idle server before any browser: ${idleMiB} MiB; bare node: ${floorMiB} MiB).`,
    });
  }
  if (first && last && heap.growth !== undefined) {
    figures.push({
      name: 'extension worker JS heap after GC, last sample',
      value: heap.last ?? Number.NaN,
      unit: 'MiB',
      beside: { label: `first sample after warm-up (minute ${first.minute})`, value: heap.first ?? Number.NaN },
      meaning: `Growth ${heap.growth} MiB, slope ${heap.slopePerMinute} MiB/min.`,
    });
  }
  if (first?.latency && last?.latency) {
    figures.push({
      name: 'call p50 in the last sampled minute',
      value: last.latency.p50,
      unit: 'ms',
      beside: { label: 'first minute after warm-up', value: first.latency.p50 },
      meaning: `p99 ${last.latency.p99} ms beside ${first.latency.p99} ms: a slowdown over the run would show here.`,
    });
  }
  figures.push({
    name: 'calls answered with an error',
    value: totals.errors,
    unit: 'calls',
    beside: { label: 'calls made', value: totals.calls },
    meaning: 'Every error of the mixed load; the first few per minute are kept in minutes[].errorSamples.',
  });
  return writeResult('soak', {
    name: 'soak',
    meaning: `Mixed calls on ${tabs.length} tabs of the demo sites for ${MINUTES} min (page tools, DOM-derived tools, focus, close and reopen), one call at a time; memory sampled every ${SAMPLE_MS / 1000} s.`,
    machine: machine(),
    complete,
    elapsedMinutes: round2((Date.now() - started) / 60_000),
    plannedMinutes: MINUTES,
    warmupSamples: WARMUP_SAMPLES,
    calls: totals.calls,
    errors: totals.errors,
    latency: allLatencies.length ? summarize(allLatencies) : undefined,
    serverRss: rss,
    workerHeapAfterGc: heap,
    figures,
    minutes: samples,
  });
}

try {
  site = await startExampleServer();
  floorMiB = await bareNodeResidentMiB();
  const agent = await startTabmcpProcess({
    args: ['--headless', '--port', String(await freePort())],
    // The launcher passes these to Chromium: the DevTools port is how the worker heap is read.
    env: { TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' },
    clientName: 'tabmcp-soak',
  });
  tabmcp = agent;
  idleMiB = residentMiB(agent.pid);
  const connected = await agent.call('connect_browser', { launch: true });
  if (connected.isError) throw new Error(`connect_browser failed: ${textOf(connected)}`);

  let current = newMinute();
  const call = async (name: string, args: Record<string, unknown>) => {
    const before = performance.now();
    try {
      const result = await agent.client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
      const elapsed = performance.now() - before;
      current.latencies.push(elapsed);
      allLatencies.push(elapsed);
      if (result.isError) throw new Error(textOf(result as CallToolResult));
      return result as CallToolResult;
    } catch (error) {
      current.errors += 1;
      totals.errors += 1;
      if (current.errorSamples.length < 5)
        current.errorSamples.push(`${name}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
      return undefined;
    } finally {
      current.byTool[name] = (current.byTool[name] ?? 0) + 1;
      totals.calls += 1;
    }
  };
  const open = async (tab: SiteTab) => {
    const opened = await call('open_tab', { url: `${site?.url}${tab.path}` });
    tab.id = opened ? (JSON.parse(textOf(opened)) as { tab: { id: number } }).tab.id : undefined;
  };
  for (const tab of tabs) await open(tab);

  const takeSample = async () => {
    const port = devtoolsPort(agent);
    const sample: Sample = {
      minute: round2((Date.now() - started) / 60_000),
      serverRssMiB: residentMiB(agent.pid),
      openTabs: tabs.filter((tab) => tab.id !== undefined).length,
      calls: Object.values(current.byTool).reduce((sum, count) => sum + count, 0),
      errors: current.errors,
      errorSamples: current.errorSamples,
      byTool: current.byTool,
    };
    if (current.latencies.length) {
      const { p50, p99, max } = summarize(current.latencies);
      sample.latency = { p50, p99, max };
    }
    try {
      if (!port) throw new Error('the DevTools port of the launched browser is unknown');
      const heap = await workerHeap(port);
      sample.workerHeapMiB = mib(heap.used);
      sample.workerHeapAfterGcMiB = mib(heap.afterGc);
    } catch (error) {
      sample.workerHeapError = error instanceof Error ? error.message : String(error);
    }
    samples.push(sample);
    current = newMinute();
    report(false);
    console.log(
      `minute ${sample.minute}: rss ${sample.serverRssMiB} MiB, worker heap ${sample.workerHeapAfterGcMiB ?? sample.workerHeapError} MiB after GC, ${sample.calls} calls, ${sample.errors} errors, p50 ${sample.latency?.p50} ms, p99 ${sample.latency?.p99} ms`,
    );
  };

  await takeSample();
  const deadline = started + MINUTES * 60_000;
  let nextSample = Date.now() + SAMPLE_MS;
  for (let round = 0; Date.now() < deadline; round++) {
    if (round % REOPEN_EVERY === REOPEN_EVERY - 1) {
      const cycled = tabs[Math.floor(round / REOPEN_EVERY) % tabs.length] as SiteTab;
      if (cycled.id !== undefined) await call('close_tab', { tabId: cycled.id });
      await open(cycled);
    }
    const tab = tabs[round % tabs.length] as SiteTab;
    if (tab.id === undefined) await open(tab);
    else await call('focus_tab', { tabId: tab.id });
    for (const [name, args] of tab.calls) await call(name, args);
    if (round % tabs.length === 0) await call('list_tabs', {});
    if (Date.now() >= nextSample) {
      await takeSample();
      nextSample += SAMPLE_MS;
    }
  }
  // A last window shorter than half a sample would give noisy per-minute figures: fold it away.
  if (Date.now() - (nextSample - SAMPLE_MS) >= SAMPLE_MS / 2) await takeSample();
  console.log(`wrote ${report(true)}`);
} finally {
  await tabmcp?.close().catch(() => {});
  await site?.close();
}
