// Issue 40's last two bars, all three servers in one run, interleaved: (a) from spawning the MCP
// server process to a loaded page ready to act on, and (b) the server process's own resident memory
// (VmRSS of its pid in /proc/<pid>/status; its browser not counted) after 300 reads of that page.
// Run: npx tsx bench/rivals-start-rss.ts (RIVALS_ONLY=tabmcp measures tabmcp alone, for a change's
// before and after; its figures are not the issue's, which need the peers in the same run).

import { type BenchSite, startBenchSite } from '../test-support/bench-site';
import { freePort } from '../test-support/net';
import { textOf } from '../test-support/results';
import { removeLaunchedProfile } from './lib/cold-start';
import { iterations } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { DEVTOOLS_MCP, PLAYWRIGHT_MCP, startRival } from './lib/rival-client';
import { median } from './lib/stats';
import { residentMiB, startBenchTabmcp } from './lib/tabmcp-client';

const RUNS = Number(process.env.BENCH_RUNS ?? iterations(5, 1));
const READS = Number(process.env.BENCH_READS ?? iterations(300, 5));
/** Between runs, so one browser's exit does not overlap the next one's start. */
const GAP_MS = 1_000;
/** Text of bench/pages/echo.html that every read must show. */
const PAGE_TEXT = 'tabmcp bench page';

interface RunFigures {
  readyMs: number;
  /** Resident memory once ready, before the reads: how much of the figure the reads added. */
  readyMiB: number;
  residentMiB: number;
  /** The read's answer, in characters (what the 300 reads carried). */
  readChars: number;
}

/** One MCP server as an agent drives it: spawn, ready on the page, then reads. */
interface Contender {
  key: string;
  label: string;
  command: string;
  /** What "ready to act on" means for this server. */
  ready: string;
  read: string;
  run(pageUrl: string): Promise<RunFigures>;
}

function mustShowPage(tool: string, text: string): string {
  if (!text.includes(PAGE_TEXT)) throw new Error(`${tool} did not show the bench page: ${text.slice(0, 500)}`);
  return text;
}

/** The server's resident memory, then READS reads of the page, then its resident memory again. */
async function readThenMeasure(pid: number, readyMs: number, read: () => Promise<string>): Promise<RunFigures> {
  const readyMiB = residentMiB(pid);
  let readChars = 0;
  for (let index = 0; index < READS; index++) readChars = (await read()).length;
  return { readyMs, readyMiB, residentMiB: residentMiB(pid), readChars };
}

const tabmcp: Contender = {
  key: 'tabmcp',
  label: 'tabmcp',
  command: 'node packages/server/dist/tabmcp.js --headless --launch --port <free>',
  ready: 'tools/list, connect_browser (launches Chromium), open_tab, tools/list until the page tools show',
  read: 'get_page_content',
  async run(pageUrl) {
    const port = await freePort();
    const started = performance.now();
    const server = await startBenchTabmcp(['--headless', '--launch', '--port', String(port)]);
    try {
      await server.toolNames();
      const connected = await server.call('connect_browser', { launch: true });
      if (connected.isError) throw new Error(`connect_browser: ${textOf(connected)}`);
      const opened = await server.call('open_tab', { url: pageUrl });
      if (opened.isError) throw new Error(`open_tab: ${textOf(opened)}`);
      // open_tab answers once the page loaded; its tools show in the list at once or a moment later.
      let listed = false;
      for (let attempt = 0; attempt < 500 && !listed; attempt++) {
        listed = (await server.toolNames()).includes('echo');
        if (!listed) await new Promise((done) => setTimeout(done, 5));
      }
      if (!listed) throw new Error('the bench page tools never showed in tools/list');
      const readyMs = performance.now() - started;
      return await readThenMeasure(server.pid, readyMs, async () => {
        const result = await server.call('get_page_content', {});
        if (result.isError) throw new Error(`get_page_content: ${textOf(result)}`);
        return mustShowPage('get_page_content', textOf(result));
      });
    } finally {
      await server.close();
      await removeLaunchedProfile(server.stderr());
    }
  },
};

const playwright: Contender = {
  key: 'playwrightMcp',
  label: 'Playwright MCP',
  command: `node node_modules/${PLAYWRIGHT_MCP.script} ${PLAYWRIGHT_MCP.args.join(' ')}`,
  // browser_navigate saves its snapshot to a file in this version; browser_snapshot answers it inline.
  ready: 'tools/list, browser_navigate, browser_snapshot',
  read: 'browser_snapshot',
  async run(pageUrl) {
    const started = performance.now();
    const rival = await startRival(PLAYWRIGHT_MCP.script, PLAYWRIGHT_MCP.args);
    try {
      await rival.listTools();
      await rival.call('browser_navigate', { url: pageUrl });
      mustShowPage('browser_snapshot', textOf(await rival.call('browser_snapshot', {})));
      const readyMs = performance.now() - started;
      return await readThenMeasure(rival.pid, readyMs, async () =>
        mustShowPage('browser_snapshot', textOf(await rival.call('browser_snapshot', {}))),
      );
    } finally {
      await rival.close();
    }
  },
};

const devtools: Contender = {
  key: 'chromeDevtoolsMcp',
  label: 'chrome-devtools-mcp',
  command: `node node_modules/${DEVTOOLS_MCP.script} ${DEVTOOLS_MCP.args.join(' ')}`,
  // Every page tool takes a pageId only list_pages tells; navigate_page answers no snapshot.
  ready: 'tools/list, list_pages, navigate_page, take_snapshot',
  read: 'take_snapshot',
  async run(pageUrl) {
    const started = performance.now();
    const rival = await startRival(DEVTOOLS_MCP.script, DEVTOOLS_MCP.args);
    try {
      await rival.listTools();
      const pages = textOf(await rival.call('list_pages', {}));
      const pageId = Number(/(\d+):[^\n]*\[selected\]/.exec(pages)?.[1]);
      if (!Number.isInteger(pageId)) throw new Error(`no selected page in: ${pages.slice(0, 500)}`);
      await rival.call('navigate_page', { pageId, type: 'url', url: pageUrl });
      const snapshot = async () => mustShowPage('take_snapshot', textOf(await rival.call('take_snapshot', { pageId })));
      await snapshot();
      const readyMs = performance.now() - started;
      return await readThenMeasure(rival.pid, readyMs, snapshot);
    } finally {
      await rival.close();
    }
  },
};

const only = process.env.RIVALS_ONLY?.split(',');
const contenders = [tabmcp, playwright, devtools].filter((contender) => !only || only.includes(contender.key));
const runs: Record<string, RunFigures[]> = Object.fromEntries(contenders.map((contender) => [contender.key, []]));
const site: BenchSite = await startBenchSite();
try {
  const pageUrl = `${site.url}/echo.html`;
  for (let round = 0; round < RUNS; round++) {
    // Interleaved, each round starting with another server, so drift of the machine touches all alike.
    for (let turn = 0; turn < contenders.length; turn++) {
      const contender = contenders[(round + turn) % contenders.length] as Contender;
      const figures = await contender.run(pageUrl);
      runs[contender.key]?.push(figures);
      console.log(
        `round ${round + 1}/${RUNS} ${contender.label}: ready ${Math.round(figures.readyMs)} ms, resident ${figures.readyMiB} MiB then, ${figures.residentMiB} MiB after ${READS} reads`,
      );
      await new Promise((done) => setTimeout(done, GAP_MS));
    }
  }
} finally {
  await site.close();
}

const results = contenders.map((contender) => {
  const own = runs[contender.key] ?? [];
  return {
    key: contender.key,
    label: contender.label,
    command: contender.command,
    ready: contender.ready,
    read: contender.read,
    readyMs: Math.round(median(own.map((run) => run.readyMs))),
    readyMiB: median(own.map((run) => run.readyMiB)),
    residentMiB: median(own.map((run) => run.residentMiB)),
    readChars: own[0]?.readChars ?? 0,
    runs: own.map((run) => ({ ...run, readyMs: Math.round(run.readyMs) })),
  };
});
const ours = results.find((result) => result.key === 'tabmcp');
const peers = results.filter((result) => result.key !== 'tabmcp');
const figures: Figure[] = [];
if (ours && peers.length > 0) {
  const fastest = peers.reduce((best, peer) => (peer.readyMs < best.readyMs ? peer : best));
  const lightest = peers.reduce((best, peer) => (peer.residentMiB < best.residentMiB ? peer : best));
  const peerList = (pick: (peer: (typeof peers)[number]) => number, unit: string) =>
    peers.map((peer) => `${peer.label} ${pick(peer)} ${unit}`).join(', ');
  figures.push(
    {
      name: `spawn to a loaded page ready to act on (median of ${RUNS})`,
      value: ours.readyMs,
      unit: 'ms',
      beside: { label: `faster peer (${fastest.label})`, value: fastest.readyMs },
      bar: '≤ the faster peer',
      pass: ours.readyMs <= fastest.readyMs,
      meaning: `${ratio(ours.readyMs, fastest.readyMs)}× the faster peer; ${peerList((peer) => peer.readyMs, 'ms')}. Browser launch included.`,
    },
    {
      name: `server resident memory after ${READS} reads (median of ${RUNS})`,
      value: ours.residentMiB,
      unit: 'MiB',
      beside: { label: `lighter peer (${lightest.label})`, value: lightest.residentMiB },
      bar: '≤ half the lighter peer',
      pass: ours.residentMiB <= lightest.residentMiB / 2,
      meaning: `${ratio(ours.residentMiB, lightest.residentMiB)}× the lighter peer; ${peerList((peer) => peer.residentMiB, 'MiB')}. VmRSS of the server's pid (/proc/<pid>/status), its browser not counted.`,
    },
  );
}

for (const result of results) {
  console.log(
    `${result.label.padEnd(20)} ready ${String(result.readyMs).padStart(5)} ms   resident ${result.readyMiB} MiB when ready, ${result.residentMiB} MiB after ${READS} reads   (read: ${result.read}, ${result.readChars} chars)`,
  );
}
for (const figure of figures) {
  console.log(
    `${figure.name}: ${figure.value} ${figure.unit} beside ${figure.beside?.label} ${figure.beside?.value} ${figure.unit}; bar ${figure.bar} ${figure.pass ? '✅' : '❌'} (${figure.meaning})`,
  );
}

// tabmcp alone is a before/after check of a change, not the figure: printed, not written.
if (!only) {
  const file = writeResult('rivals-start-rss', {
    name: 'rivals-start-rss',
    meaning: `Issue 40's bars, all servers in one run, interleaved: spawn of the MCP server process to a loaded page ready to act on, and the server process's resident memory after ${READS} reads of that page.`,
    machine: machine(),
    runs: RUNS,
    reads: READS,
    results,
    figures,
  });
  console.log(`wrote ${file}`);
}
