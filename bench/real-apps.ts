import { isDeepStrictEqual } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { buildApps } from '../examples/apps/build';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { browserLaunchedBy } from '../test-support/cdp';
import { freePort } from '../test-support/net';
import {
  devtoolsScript,
  playwrightScript,
  type RealAppTask,
  ScriptedAgent,
  TASKS,
  type TaskScript,
  tabmcpScript,
} from '../test-support/real-app-agent';
import type { StdioMcp } from '../test-support/stdio-client';
import { startTabmcpProcess } from '../test-support/tabmcp-process';
import { startPeerOnChromium } from './lib/devtools-chromium';
import { iterations } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { median } from './lib/stats';

const RUNS = Number(process.env.REAL_APPS_RUNS ?? iterations(3, 1));
// REAL_APPS_ONLY=tabmcp,playwrightMcp and REAL_APPS_TASKS=react-todo narrow a run while working on one.
const only = (variable: string) => process.env[variable]?.split(',').filter(Boolean);

/** A server under test with a way into its browser over CDP, to check the page. */
interface Session {
  mcp: StdioMcp;
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

interface Contender {
  key: string;
  label: string;
  start(): Promise<Session>;
  script: TaskScript;
}

function rival(script: string, args: (cdpUrl: string) => string[]): () => Promise<Session> {
  return async () => {
    const peer = await startPeerOnChromium(script, args, 'tabmcp-bench-real-apps');
    let cdp: Browser | undefined;
    return {
      mcp: peer.mcp,
      browser: async () => {
        cdp ??= await chromium.connectOverCDP(peer.chrome.url);
        return cdp;
      },
      close: async () => {
        await cdp?.close().catch(() => {});
        await peer.close();
      },
    };
  };
}

const allContenders: Contender[] = [
  {
    key: 'tabmcp',
    label: 'tabmcp (DOM-derived tools)',
    start: async () => {
      const mcp = await startTabmcpProcess({
        args: ['--launch', '--headless', '--port', String(await freePort())],
        env: { TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' },
        clientName: 'tabmcp-bench-real-apps',
      });
      let cdp: Browser | undefined;
      return {
        mcp,
        browser: async () => {
          cdp ??= await browserLaunchedBy(() => mcp.stderr());
          return cdp;
        },
        close: async () => {
          await cdp?.close().catch(() => {});
          await mcp.close();
        },
      };
    },
    script: tabmcpScript,
  },
  {
    key: 'playwrightMcp',
    label: 'Playwright MCP (snapshot, type, click by ref)',
    start: rival('@playwright/mcp/cli.js', (url) => ['--cdp-endpoint', url]),
    script: playwrightScript,
  },
  {
    key: 'chromeDevtoolsMcp',
    label: 'chrome-devtools-mcp (snapshot, fill, click by uid)',
    start: rival('chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js', (url) => [
      '--browserUrl',
      url,
      '--usageStatistics=false',
      '--performanceCrux=false',
    ]),
    script: devtoolsScript,
  },
];

const contenders = allContenders.filter((contender) => only('REAL_APPS_ONLY')?.includes(contender.key) ?? true);
const tasks = TASKS.filter((task) => only('REAL_APPS_TASKS')?.includes(task.key) ?? true);

interface Run {
  ok: boolean;
  calls: number;
  toolListBytes: number;
  resultBytes: number;
  wallMs: number;
  error?: string;
}

async function pageState(browser: Browser, task: RealAppTask): Promise<unknown> {
  const page = browser
    .contexts()
    .flatMap((context) => context.pages())
    .find((candidate) => candidate.url().includes(task.path));
  if (!page) return undefined;
  const raw = (await page.evaluate(task.stateScript)) as string | undefined;
  try {
    return raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    return raw;
  }
}

async function runOnce(contender: Contender, task: RealAppTask, site: ExampleServer): Promise<Run> {
  const started = performance.now();
  const session = await contender.start();
  const agent = new ScriptedAgent(session.mcp);
  try {
    await contender.script(agent, `${site.url}${task.path}`, task);
    const wallMs = performance.now() - started;
    // Give the page a moment to apply the last input, as a person would glance before moving on.
    const expected = JSON.parse(JSON.stringify(tryParse(task.expected)));
    let state: unknown;
    for (let tries = 0; tries < 20 && !isDeepStrictEqual(state, expected); tries++) {
      state = await pageState(await session.browser(), task);
      if (!isDeepStrictEqual(state, expected)) await new Promise((done) => setTimeout(done, 100));
    }
    const ok = isDeepStrictEqual(state, expected);
    if (process.env.REAL_APPS_TRANSCRIPT === '1') console.log(agent.transcript.join('\n'));
    return {
      ok,
      calls: agent.calls,
      toolListBytes: agent.toolListBytes,
      resultBytes: agent.resultBytes,
      wallMs,
      ...(ok ? {} : { error: `the page shows ${JSON.stringify(state)}, not ${task.expected}` }),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      calls: agent.calls,
      toolListBytes: agent.toolListBytes,
      resultBytes: agent.resultBytes,
      wallMs: performance.now() - started,
      error: `${message.slice(0, 1500)}\n--- transcript tail ---\n${agent.transcript.slice(-3).join('\n').slice(0, 1500)}`,
    };
  } finally {
    await session.close();
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

await buildApps();
const site = await startExampleServer();
const results: Record<string, Record<string, Run[]>> = {};
try {
  for (let index = 0; index < RUNS; index++) {
    for (const task of tasks) {
      for (const contender of contenders) {
        const run = await runOnce(contender, task, site);
        const byContender = results[task.key] ?? {};
        results[task.key] = byContender;
        byContender[contender.key] = [...(byContender[contender.key] ?? []), run];
        if (!run.ok) console.error(`${task.key} · ${contender.key}, run ${index + 1} failed: ${run.error}`);
      }
    }
  }
} finally {
  await site.close();
}

const round = (value: number) => Math.round(value);
const table: Record<string, Record<string, unknown>> = {};
const figures: Figure[] = [];
const totals: Record<string, { calls: number; bytes: number; ok: number; runs: number }> = {};
for (const task of tasks) {
  table[task.key] = { label: task.label };
  for (const contender of contenders) {
    const runs = results[task.key]?.[contender.key] ?? [];
    const good = runs.filter((run) => run.ok);
    const last = good.at(-1) ?? runs.at(-1);
    const row = {
      success: `${good.length}/${runs.length}`,
      calls: last?.calls ?? 0,
      bytesRead: (last?.toolListBytes ?? 0) + (last?.resultBytes ?? 0),
      toolListBytes: last?.toolListBytes ?? 0,
      resultBytes: last?.resultBytes ?? 0,
      wallMsP50: good.length ? round(median(good.map((run) => run.wallMs))) : null,
      ...(good.length < runs.length ? { failure: runs.find((run) => !run.ok)?.error?.slice(0, 800) } : {}),
    };
    (table[task.key] as Record<string, unknown>)[contender.key] = row;
    const total = totals[contender.key] ?? { calls: 0, bytes: 0, ok: 0, runs: 0 };
    totals[contender.key] = total;
    total.calls += row.calls;
    total.bytes += row.bytesRead;
    total.ok += good.length;
    total.runs += runs.length;
  }
}

console.log('task'.padEnd(12), ...contenders.map((contender) => contender.key.padEnd(34)));
for (const task of tasks) {
  const cells = contenders.map((contender) => {
    const row = table[task.key]?.[contender.key] as {
      success: string;
      calls: number;
      bytesRead: number;
      wallMsP50: number | null;
    };
    return `${row.success} ok, ${row.calls} calls, ${row.bytesRead} B, ${row.wallMsP50 ?? '-'} ms`.padEnd(34);
  });
  console.log(task.key.padEnd(12), ...cells);
}
const mine = totals.tabmcp;
for (const contender of contenders) {
  const theirs = totals[contender.key];
  if (!theirs || !mine) continue;
  figures.push({
    name: `${contender.label}: bytes read over the ${tasks.length} tasks`,
    value: theirs.bytes,
    unit: 'B',
    ...(contender.key === 'tabmcp' ? {} : { beside: { label: 'tabmcp', value: mine.bytes } }),
    meaning:
      contender.key === 'tabmcp'
        ? `${theirs.ok}/${theirs.runs} runs finished; ${theirs.calls} calls.`
        : `${ratio(theirs.bytes, mine.bytes)}× tabmcp's bytes, ${theirs.calls} calls beside tabmcp's ${mine.calls}; ${theirs.ok}/${theirs.runs} runs finished.`,
    ...(contender.key === 'playwrightMcp' ? { bar: 'tabmcp ≤ 1/3 of its bytes, no more calls' } : {}),
  });
}
for (const figure of figures) {
  const beside = figure.beside ? `  (${figure.beside.label}: ${figure.beside.value})` : '';
  console.log(`${figure.name}: ${figure.value} ${figure.unit}${beside} — ${figure.meaning}`);
}
const file = writeResult('real-apps', {
  name: 'real-apps',
  meaning:
    'Tasks on fixture pages that publish no tools, done by a scripted agent through each MCP server; a run counts only when the page, read over CDP, shows the task done. Bytes are tool lists plus result texts the agent read; wall time from process start to the last call, browser launch included (median of successful runs). The floor of each figure is its rivals, measured in the same run.',
  machine: machine(),
  runs: RUNS,
  tasks: table,
  totals,
  figures,
});
console.log(`wrote ${file}`);
if (Object.values(totals).some((total) => total.ok < total.runs) && mine && mine.ok < mine.runs) process.exitCode = 1;
