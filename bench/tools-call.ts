// Issue 2: a page tool called with tools/call from the MCP SDK client over stdio, beside its floor
// (Node → WebSocket → worker → Port → content script → postMessage → page → back) in the same
// browser and page; plus cold start and the server's resident memory. Run: npx tsx bench/tools-call.ts
import { tmpdir } from 'node:os';
import { type ColdStart, measureColdStart } from './lib/cold-start';
import { measureColdStartFloor } from './lib/cold-start-floor';
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
const BARS = { p50RatioMax: 2, p99MaxMs: 10, coldStartMaxMs: 800, rssMaxMiB: 60 };

const rig = await startRig();
const tabmcp: number[] = [];
const floor: number[] = [];
const workerEcho: number[] = [];
const mcpPing: number[] = [];
const floorPageSdk: number[] = [];
let rssMiB: number;
let rssBeforeMiB: number;
try {
  rssBeforeMiB = residentMiB(rig.tabmcp.pid);
  await timeEach(WARMUP, () => rig.floorRoundTrip());
  await timeEach(WARMUP, () => rig.callEcho());
  await timeEach(WARMUP, () => rig.workerEcho());
  await timeEach(WARMUP, () => rig.floorPageSdkRoundTrip());
  // Interleaved blocks, so drift of the machine touches both series alike.
  for (let done = 0; done < CALLS; done += BLOCK) {
    const size = Math.min(BLOCK, CALLS - done);
    floor.push(...(await timeEach(size, () => rig.floorRoundTrip())));
    tabmcp.push(...(await timeEach(size, () => rig.callEcho())));
    workerEcho.push(...(await timeEach(size, () => rig.workerEcho())));
    mcpPing.push(...(await timeEach(size, () => rig.tabmcp.client.ping())));
    floorPageSdk.push(...(await timeEach(size, () => rig.floorPageSdkRoundTrip())));
  }
  rssMiB = residentMiB(rig.tabmcp.pid);
} finally {
  await rig.close();
}

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

const bareNodeMiB = await bareNodeResidentMiB();
// Interleaved with the floor, so drift of the machine touches the series alike. Beside tabmcp's
// default (its temporary profile in RAM where the machine has room: launcher/profile-root.ts), the
// same start with the profile on disk, as on a machine without that room.
const cold: ColdStart[] = [];
const coldOnDisk: ColdStart[] = [];
const coldFloor: number[] = [];
for (let run = 0; run < COLD_RUNS; run++) {
  await pause(COLD_GAP_MS);
  cold.push(await measureColdStart());
  await pause(COLD_GAP_MS);
  coldOnDisk.push(await measureColdStart({ TABMCP_PROFILE_ROOT: tmpdir() }));
  await pause(COLD_GAP_MS);
  coldFloor.push(await measureColdStartFloor());
}

const call = summarize(tabmcp);
const floorSummary = summarize(floor);
const echoSummary = summarize(workerEcho);
const pingSummary = summarize(mcpPing);
const pageSdkSummary = summarize(floorPageSdk);
const p50Ratio = ratio(call.p50, floorSummary.p50);
const p99Ratio = ratio(call.p99, floorSummary.p99);
const coldMedian = Math.round(median(cold.map((run) => run.totalMs)));
const coldFloorMedian = Math.round(median(coldFloor));
const coldOnDiskMedian = Math.round(median(coldOnDisk.map((run) => run.totalMs)));

console.log(formatRow('tabmcp tools/call echo (stdio)', call));
console.log(formatRow('floor: Node → WS → worker → Port → content → page → back', floorSummary));
console.log(formatRow('bare WebSocket echo Node ↔ worker', echoSummary));
console.log(formatRow('MCP ping over stdio (client ↔ tabmcp)', pingSummary));
console.log(formatRow('floor, page side a page SDK tools/call', pageSdkSummary));
console.log(
  `ratio p50 ${p50Ratio}× (bar ≤ ${BARS.p50RatioMax}×), p99 ${p99Ratio}×; p99 ${call.p99} ms (bar < ${BARS.p99MaxMs} ms)`,
);
console.log(
  `cold start (tabmcp --launch → tools/list with page tools), median of ${COLD_RUNS}: ${coldMedian} ms (bar < ${BARS.coldStartMaxMs} ms); runs ${cold.map((run) => Math.round(run.totalMs)).join(', ')}`,
);
console.log(
  `cold start with the profile on disk (TABMCP_PROFILE_ROOT=${tmpdir()}), median: ${coldOnDiskMedian} ms; runs ${coldOnDisk.map((run) => Math.round(run.totalMs)).join(', ')}`,
);
console.log(
  `floor of a cold start (Chromium + floor extension → tab opened → its content script connected), median: ${coldFloorMedian} ms; runs ${coldFloor.map(Math.round).join(', ')}`,
);
console.log(
  `tabmcp resident memory after ${CALLS + WARMUP} calls: ${rssMiB} MiB (bar < ${BARS.rssMaxMiB} MiB); idle before any browser: ${rig.idleMiB} MiB; connected, before the calls: ${rssBeforeMiB} MiB; an idle bare \`node\`: ${bareNodeMiB} MiB`,
);

const pass = {
  p50WithinRatio: p50Ratio <= BARS.p50RatioMax,
  p99UnderMs: call.p99 < BARS.p99MaxMs,
  coldStart: coldMedian < BARS.coldStartMaxMs,
  memory: rssMiB < BARS.rssMaxMiB,
};
const floorLabel = 'floor p50';
const figures: Figure[] = [
  {
    name: 'tools/call p50',
    value: call.p50,
    unit: 'ms',
    beside: { label: floorLabel, value: floorSummary.p50 },
    bar: `≤ ${BARS.p50RatioMax}× floor (now ${p50Ratio}×)`,
    pass: pass.p50WithinRatio,
    meaning: 'The usual wait of an agent for a trivial page tool, through tabmcp and the extension.',
  },
  {
    name: 'tools/call p99',
    value: call.p99,
    unit: 'ms',
    beside: { label: 'floor p99', value: floorSummary.p99 },
    bar: `< ${BARS.p99MaxMs} ms`,
    pass: pass.p99UnderMs,
    meaning: 'The slow tail of the same calls: one call in a hundred takes longer.',
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
    bar: `< ${BARS.coldStartMaxMs} ms`,
    pass: pass.coldStart,
    meaning: 'From `tabmcp --launch` process start to the first tools/list showing the page tools.',
  },
  {
    name: `cold start, profile on disk (median of ${COLD_RUNS})`,
    value: coldOnDiskMedian,
    unit: 'ms',
    beside: { label: 'cold start, profile where tabmcp puts it by default', value: coldMedian },
    meaning: 'The same with the temporary profile in the temp dir, as on a machine whose /dev/shm has no room.',
  },
  {
    name: 'server resident memory',
    value: rssMiB,
    unit: 'MiB',
    beside: { label: 'idle bare node', value: bareNodeMiB },
    bar: `< ${BARS.rssMaxMiB} MiB`,
    pass: pass.memory,
    meaning: `VmRSS of the tabmcp process after ${CALLS + WARMUP} page tool calls.`,
  },
];

const file = writeResult('tools-call', {
  name: 'tools-call',
  meaning: 'A page tool called with tools/call over stdio, end to end, beside the bare extension path in the same run.',
  machine: machine(),
  calls: CALLS,
  warmup: WARMUP,
  series: {
    tabmcp: { label: 'tabmcp tools/call (stdio → page → back)', ...call, samples: tabmcp.map(round3) },
    floor: {
      label: 'floor: Node → WS → worker → Port → content → page → back',
      ...floorSummary,
      samples: floor.map(round3),
    },
    workerEcho: { label: 'bare WebSocket echo Node ↔ worker', ...echoSummary, samples: workerEcho.map(round3) },
    floorPageSdk: {
      label: 'floor with the page SDK answering a tools/call at the page end',
      ...pageSdkSummary,
      samples: floorPageSdk.map(round3),
    },
    mcpPing: {
      label: 'MCP ping over stdio (client ↔ tabmcp, no browser)',
      ...pingSummary,
      samples: mcpPing.map(round3),
    },
  },
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
    floorRunsMs: coldFloor.map(Math.round),
    runs: cold.map((run) => ({
      totalMs: Math.round(run.totalMs),
      initializedMs: Math.round(run.initializedMs),
      connectedMs: Math.round(run.connectedMs),
      tabOpenedMs: Math.round(run.tabOpenedMs),
    })),
  },
  memory: { residentMiB: rssMiB, idleMiB: rig.idleMiB, beforeCallsMiB: rssBeforeMiB, bareNodeMiB },
  bars: BARS,
  pass,
  figures,
});
console.log(`wrote ${file}`);

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function pause(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
