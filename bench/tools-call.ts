// Issue 2: a page tool called with tools/call from the MCP SDK client over stdio, beside its floor
// (Node → WebSocket → worker → Port → content script → postMessage → page → back) in the same
// browser and page; plus cold start and the server's resident memory. The tool has no annotations,
// as most sites publish them (issue 24); the same tool marked read-only is measured beside it. The
// server runs under this Node and under Node 22 (installed with npm into .tmp/node22 on first use),
// each with its own browser, in the same run. Run: npx tsx bench/tools-call.ts
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { node22 } from '../test-support/npm-tools';
import { type ColdStart, measureColdStart } from './lib/cold-start';
import { type ColdStartFloor, measureColdStartFloor } from './lib/cold-start-floor';
import { startExtensionRig } from './lib/extension-rig';
import { iterations } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { startRig } from './lib/rig';
import { formatRow, median, summarize, timeEach } from './lib/stats';
import { bareNodeResidentMiB, residentMiB } from './lib/tabmcp-client';

const CALLS = Number(process.env.BENCH_CALLS ?? iterations(1_000, 20));
const WARMUP = iterations(200, 5);
const BLOCK = iterations(100, 10);
const COLD_RUNS = iterations(7, 1);
/** Between cold starts, so one browser's exit does not overlap the next one's start. */
const COLD_GAP_MS = 1_000;
const BARS = { p50RatioMax: 2, p99MaxMs: 10, coldStartRatioMax: 1.3, rssMaxMiB: 60 };

/** Every series of one tabmcp server, run by one Node binary, against the same browser's floors. */
interface LineRun {
  label: string;
  node: string;
  version: string;
  plain: number[];
  readOnly: number[];
  floor: number[];
  workerEcho: number[];
  mcpPing: number[];
  floorPageSdk: number[];
  idleMiB: number;
  beforeCallsMiB: number;
  residentMiB: number;
  bareNodeMiB: number;
}

/**
 * One rig (one Chromium, one tabmcp run by `node`): the page tool without annotations (the common
 * case), the same tool marked read-only, the floors, then the server's resident memory.
 */
async function measureLine(label: string, node: string): Promise<LineRun> {
  const rig = await startRig([], node);
  const run: LineRun = {
    label,
    node,
    version: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
    plain: [],
    readOnly: [],
    floor: [],
    workerEcho: [],
    mcpPing: [],
    floorPageSdk: [],
    idleMiB: rig.idleMiB,
    beforeCallsMiB: 0,
    residentMiB: 0,
    bareNodeMiB: 0,
  };
  try {
    run.beforeCallsMiB = residentMiB(rig.tabmcp.pid);
    await timeEach(WARMUP, () => rig.floorRoundTrip());
    await timeEach(WARMUP, () => rig.callPlainEcho());
    await timeEach(WARMUP, () => rig.callEcho());
    await timeEach(WARMUP, () => rig.workerEcho());
    await timeEach(WARMUP, () => rig.floorPageSdkRoundTrip());
    // Interleaved blocks, so drift of the machine touches every series alike.
    for (let done = 0; done < CALLS; done += BLOCK) {
      const size = Math.min(BLOCK, CALLS - done);
      run.floor.push(...(await timeEach(size, () => rig.floorRoundTrip())));
      run.plain.push(...(await timeEach(size, () => rig.callPlainEcho())));
      run.readOnly.push(...(await timeEach(size, () => rig.callEcho())));
      run.workerEcho.push(...(await timeEach(size, () => rig.workerEcho())));
      run.mcpPing.push(...(await timeEach(size, () => rig.tabmcp.client.ping())));
      run.floorPageSdk.push(...(await timeEach(size, () => rig.floorPageSdkRoundTrip())));
    }
    run.residentMiB = residentMiB(rig.tabmcp.pid);
  } finally {
    await rig.close();
  }
  run.bareNodeMiB = await bareNodeResidentMiB(node);
  return run;
}

// Both Node lines in the same run (the memory bar holds on each): this Node, then Node 22 (or 20).
const otherLine = process.versions.node.startsWith('22.') ? undefined : node22();
const lines: LineRun[] = [await measureLine(`Node ${process.versions.node.split('.')[0]}`, process.execPath)];
if (otherLine) lines.push(await measureLine('Node 22', otherLine));
const [main] = lines;
if (!main) throw new Error('no Node line measured');

// Second browser: tabmcp's extension driven straight over its WebSocket, to split the gap to the
// floor between the extension pipeline and the MCP server in front of it.
const direct = await startExtensionRig();
const extensionPath: number[] = [];
const floorDirect: number[] = [];
try {
  await timeEach(WARMUP, () => direct.callDirect());
  await timeEach(WARMUP, () => direct.floorRoundTrip());
  for (let done = 0; done < CALLS; done += BLOCK) {
    const size = Math.min(BLOCK, CALLS - done);
    floorDirect.push(...(await timeEach(size, () => direct.floorRoundTrip())));
    extensionPath.push(...(await timeEach(size, () => direct.callDirect())));
  }
} finally {
  await direct.close();
}
const extensionSummary = summarize(extensionPath);
const floorDirectSummary = summarize(floorDirect);

// Interleaved with the floor, so drift of the machine touches the series alike. Beside tabmcp's
// default (its temporary profile in RAM where the machine has room: launcher/profile-root.ts), the
// same start with the profile on disk, as on a machine without that room.
const cold: ColdStart[] = [];
const coldOnDisk: ColdStart[] = [];
/** The other Node line: Node 22 and later keep tabmcp's compiled code on disk (compile-cache.ts). */
const coldOtherLine: ColdStart[] = [];
const coldFloor: ColdStartFloor[] = [];
for (let run = 0; run < COLD_RUNS; run++) {
  await pause(COLD_GAP_MS);
  cold.push(await measureColdStart());
  if (otherLine) {
    await pause(COLD_GAP_MS);
    coldOtherLine.push(await measureColdStart({}, otherLine));
  }
  await pause(COLD_GAP_MS);
  coldOnDisk.push(await measureColdStart({ TABMCP_PROFILE_ROOT: tmpdir() }));
  await pause(COLD_GAP_MS);
  coldFloor.push(await measureColdStartFloor());
}

const call = summarize(main.plain);
const readOnlySummary = summarize(main.readOnly);
const floorSummary = summarize(main.floor);
const pingSummary = summarize(main.mcpPing);
const pageSdkSummary = summarize(main.floorPageSdk);
const p50Ratio = ratio(call.p50, floorSummary.p50);
const p99Ratio = ratio(call.p99, floorSummary.p99);
const coldMedian = Math.round(median(cold.map((run) => run.totalMs)));
const coldFloorMedian = Math.round(median(coldFloor.map((run) => run.totalMs)));
/** Where a cold start's time goes, each phase's median beside the floor's (the "cold start" bar). */
const coldPhases = {
  initializeMs: Math.round(median(cold.map((run) => run.initializedMs))),
  launchToLinkedMs: Math.round(median(cold.map((run) => run.connectedMs - run.initializedMs))),
  openTabMs: Math.round(median(cold.map((run) => run.tabOpenedMs - run.connectedMs))),
  toolsListedMs: Math.round(median(cold.map((run) => run.totalMs - run.tabOpenedMs))),
  floorLaunchToLinkedMs: Math.round(median(coldFloor.map((run) => run.linkedMs))),
  floorOpenTabMs: Math.round(median(coldFloor.map((run) => run.totalMs - run.linkedMs))),
};
const coldOnDiskMedian = Math.round(median(coldOnDisk.map((run) => run.totalMs)));
const coldRatio = ratio(coldMedian, coldFloorMedian);
const coldOtherMedian = coldOtherLine.length ? Math.round(median(coldOtherLine.map((run) => run.totalMs))) : undefined;
const otherLabel = lines[1]?.label;

for (const line of lines) {
  console.log(`${line.label} (${line.version}):`);
  console.log(formatRow('  tabmcp tools/call, tool without annotations', summarize(line.plain)));
  console.log(formatRow('  tabmcp tools/call, tool marked read-only', summarize(line.readOnly)));
  console.log(formatRow('  floor: Node → WS → worker → Port → content → page → back', summarize(line.floor)));
  console.log(formatRow('  bare WebSocket echo Node ↔ worker', summarize(line.workerEcho)));
  console.log(formatRow('  MCP ping over stdio (client ↔ tabmcp)', summarize(line.mcpPing)));
  console.log(formatRow('  floor, page side a page SDK tools/call', summarize(line.floorPageSdk)));
}
console.log(
  `ratio p50 ${p50Ratio}× (bar ≤ ${BARS.p50RatioMax}×), p99 ${p99Ratio}×; p99 ${call.p99} ms (bar < ${BARS.p99MaxMs} ms)`,
);
console.log(
  `cold start (tabmcp --launch → tools/list with page tools), median of ${COLD_RUNS}: ${coldMedian} ms, ${coldRatio}× its floor (bar ≤ ${BARS.coldStartRatioMax}×); runs ${cold.map((run) => Math.round(run.totalMs)).join(', ')}`,
);
console.log(
  `cold start with the profile on disk (TABMCP_PROFILE_ROOT=${tmpdir()}), median: ${coldOnDiskMedian} ms; runs ${coldOnDisk.map((run) => Math.round(run.totalMs)).join(', ')}`,
);
if (coldOtherMedian !== undefined) {
  console.log(
    `cold start run by ${otherLabel}, median: ${coldOtherMedian} ms, ${ratio(coldOtherMedian, coldFloorMedian)}× the floor; runs ${coldOtherLine.map((run) => Math.round(run.totalMs)).join(', ')}`,
  );
}
console.log(
  `floor of a cold start (Chromium + floor extension → tab opened → its content script connected), median: ${coldFloorMedian} ms; runs ${coldFloor.map((run) => Math.round(run.totalMs)).join(', ')}`,
);
console.log(
  `cold start phases, medians: process start → MCP initialize answered ${coldPhases.initializeMs} ms (the floor has no process to start); connect_browser, Chromium launched → extension linked ${coldPhases.launchToLinkedMs} ms (floor ${coldPhases.floorLaunchToLinkedMs} ms); open_tab, page loaded and its tools registered ${coldPhases.openTabMs} ms (floor: tab opened → content script connected ${coldPhases.floorOpenTabMs} ms); then tools/list ${coldPhases.toolsListedMs} ms`,
);
for (const line of lines) {
  console.log(
    `${line.label}: tabmcp resident memory after ${CALLS + WARMUP} calls of each tool: ${line.residentMiB} MiB (bar < ${BARS.rssMaxMiB} MiB); idle before any browser: ${line.idleMiB} MiB; connected, before the calls: ${line.beforeCallsMiB} MiB; an idle bare \`node\`: ${line.bareNodeMiB} MiB`,
  );
}

const pass = {
  p50WithinRatio: p50Ratio <= BARS.p50RatioMax,
  p99UnderMs: call.p99 < BARS.p99MaxMs,
  coldStart: coldRatio <= BARS.coldStartRatioMax,
  memory: lines.every((line) => line.residentMiB < BARS.rssMaxMiB),
};
const floorLabel = 'floor p50';
const figures: Figure[] = [
  {
    name: 'tools/call p50, page tool without annotations',
    value: call.p50,
    unit: 'ms',
    beside: { label: floorLabel, value: floorSummary.p50 },
    bar: `≤ ${BARS.p50RatioMax}× floor (now ${p50Ratio}×)`,
    pass: pass.p50WithinRatio,
    meaning: 'The usual wait of an agent for a trivial page tool, through tabmcp and the extension.',
  },
  {
    name: 'tools/call p99, page tool without annotations',
    value: call.p99,
    unit: 'ms',
    beside: { label: 'floor p99', value: floorSummary.p99 },
    bar: `< ${BARS.p99MaxMs} ms`,
    pass: pass.p99UnderMs,
    meaning: 'The slow tail of the same calls: one call in a hundred takes longer.',
  },
  {
    name: 'tools/call p50, page tool marked read-only',
    value: readOnlySummary.p50,
    unit: 'ms',
    beside: { label: floorLabel, value: floorSummary.p50 },
    meaning: 'The same tool marked readOnlyHint, which the extension never holds for a navigation.',
  },
  {
    name: 'stdio share of tools/call p50',
    value: pingSummary.p50,
    unit: 'ms',
    beside: { label: 'tools/call p50 minus floor p50', value: Math.round((call.p50 - floorSummary.p50) * 1000) / 1000 },
    meaning: 'An MCP ping over stdio: the part of the gap to the floor that the stdio hop and the SDK cost alone.',
  },
  {
    name: 'page SDK share of tools/call p50',
    value: Math.round((pageSdkSummary.p50 - floorSummary.p50) * 1000) / 1000,
    unit: 'ms',
    beside: { label: 'tools/call p50 minus floor p50', value: Math.round((call.p50 - floorSummary.p50) * 1000) / 1000 },
    meaning:
      'What answering a real MCP tools/call in the page (envelope, JSON-RPC, tool lookup) adds to the bare floor.',
  },
  {
    name: 'extension pipeline share of tools/call p50',
    value: Math.round((extensionSummary.p50 - floorDirectSummary.p50) * 1000) / 1000,
    unit: 'ms',
    beside: { label: 'tools/call p50 minus floor p50', value: Math.round((call.p50 - floorSummary.p50) * 1000) / 1000 },
    meaning:
      "What tabmcp's extension (hub, validation, content script client, page SDK) adds over the floor; the rest of the gap is the server.",
  },
  {
    name: `cold start (median of ${COLD_RUNS})`,
    value: coldMedian,
    unit: 'ms',
    beside: {
      label: 'floor: Chromium + a bare extension, tab opened, content script connected',
      value: coldFloorMedian,
    },
    bar: `≤ ${BARS.coldStartRatioMax}× floor (now ${coldRatio}×)`,
    pass: pass.coldStart,
    meaning: 'From `tabmcp --launch` process start to the first tools/list showing the page tools.',
  },
  {
    name: 'cold start phase: connect_browser (Chromium launched → extension linked), median',
    value: coldPhases.launchToLinkedMs,
    unit: 'ms',
    beside: { label: "floor: Chromium launched → floor extension's hello", value: coldPhases.floorLaunchToLinkedMs },
    meaning: "Chromium's own start plus the extension worker's start-up before it dials the server.",
  },
  {
    name: 'cold start phase: open_tab (page loaded, its tools registered), median',
    value: coldPhases.openTabMs,
    unit: 'ms',
    beside: { label: 'floor: tab opened → content script connected', value: coldPhases.floorOpenTabMs },
    meaning: `The rest of a cold start: ${coldPhases.initializeMs} ms of Node start-up and MCP initialize (the floor has no process to start), then ${coldPhases.toolsListedMs} ms for tools/list.`,
  },
  {
    name: `cold start, profile on disk (median of ${COLD_RUNS})`,
    value: coldOnDiskMedian,
    unit: 'ms',
    beside: { label: 'cold start, profile where tabmcp puts it by default', value: coldMedian },
    meaning: 'The same with the temporary profile in the temp dir, as on a machine whose /dev/shm has no room.',
  },
  ...(coldOtherMedian === undefined
    ? []
    : [
        {
          name: `cold start run by ${otherLabel} (median of ${COLD_RUNS})`,
          value: coldOtherMedian,
          unit: 'ms',
          beside: {
            label: 'floor: Chromium + a bare extension, tab opened, content script connected',
            value: coldFloorMedian,
          },
          bar: `≤ ${BARS.coldStartRatioMax}× floor (now ${ratio(coldOtherMedian, coldFloorMedian)}×)`,
          pass: coldOtherMedian <= coldFloorMedian * BARS.coldStartRatioMax,
          meaning: "The same start with tabmcp run by the other Node line, which keeps tabmcp's compiled code on disk.",
        } satisfies Figure,
      ]),
  ...lines.map(
    (line): Figure => ({
      name: `server resident memory, ${line.label}`,
      value: line.residentMiB,
      unit: 'MiB',
      beside: { label: `idle bare node (${line.version})`, value: line.bareNodeMiB },
      bar: `< ${BARS.rssMaxMiB} MiB`,
      pass: line.residentMiB < BARS.rssMaxMiB,
      meaning: `VmRSS of the tabmcp process run by ${line.version}, after ${CALLS + WARMUP} calls of each page tool.`,
    }),
  ),
];

const file = writeResult('tools-call', {
  name: 'tools-call',
  meaning: 'A page tool called with tools/call over stdio, end to end, beside the bare extension path in the same run.',
  machine: machine(),
  calls: CALLS,
  warmup: WARMUP,
  node: main.version,
  series: lineSeries(main),
  // The same series with the server run by the other Node line (its own browser, same run).
  otherLines: lines.slice(1).map((line) => ({
    label: line.label,
    version: line.version,
    series: lineSeries(line),
  })),
  memoryByLine: lines.map((line) => ({
    label: line.label,
    version: line.version,
    memory: {
      residentMiB: line.residentMiB,
      idleMiB: line.idleMiB,
      beforeCallsMiB: line.beforeCallsMiB,
      bareNodeMiB: line.bareNodeMiB,
    },
  })),
  ratios: { p50: p50Ratio, p99: p99Ratio },
  decomposition: {
    meaning:
      'A second browser: the real extension called over its WebSocket by a bare Node server, beside the floor there.',
    floor: { label: 'floor (second browser)', ...floorDirectSummary },
    extensionPath: {
      label: 'tabmcp extension alone: WS → worker → hub → Port → content → page SDK → back',
      ...extensionSummary,
    },
  },
  coldStart: {
    medianMs: coldMedian,
    floorMedianMs: coldFloorMedian,
    onDiskMedianMs: coldOnDiskMedian,
    onDiskRunsMs: coldOnDisk.map((run) => Math.round(run.totalMs)),
    floorRunsMs: coldFloor.map((run) => Math.round(run.totalMs)),
    floorLinkedRunsMs: coldFloor.map((run) => Math.round(run.linkedMs)),
    phases: coldPhases,
    runs: cold.map((run) => ({
      totalMs: Math.round(run.totalMs),
      initializedMs: Math.round(run.initializedMs),
      connectedMs: Math.round(run.connectedMs),
      tabOpenedMs: Math.round(run.tabOpenedMs),
    })),
  },
  memory: Object.fromEntries(lines.map((line) => [line.label, line.residentMiB])),
  bars: BARS,
  pass,
  figures,
});
console.log(`wrote ${file}`);

function lineSeries(line: LineRun) {
  const series = (label: string, samples: number[]) => ({ label, ...summarize(samples), samples: samples.map(round3) });
  return {
    tabmcp: series('tabmcp tools/call of a page tool without annotations (stdio → page → back)', line.plain),
    tabmcpReadOnly: series('tabmcp tools/call of the same tool marked read-only', line.readOnly),
    floor: series('floor: Node → WS → worker → Port → content → page → back', line.floor),
    workerEcho: series('bare WebSocket echo Node ↔ worker', line.workerEcho),
    floorPageSdk: series('floor with the page SDK answering a tools/call at the page end', line.floorPageSdk),
    mcpPing: series('MCP ping over stdio (client ↔ tabmcp, no browser)', line.mcpPing),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function pause(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
