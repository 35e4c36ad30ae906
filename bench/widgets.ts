// Issue 23: every task of the widget gauntlet (test-support/widget-tasks/catalog) through tabmcp,
// Playwright MCP and chrome-devtools-mcp side by side. Each tool's scripted runner turns a step into
// that tool's own calls, finding elements by role and name in what the tool shows, as a model does;
// a run counts only when the library's own state, read over CDP, shows the task done. Per task and
// tool: success, calls, bytes read (tool lists + results), wall time (the task's calls, one server
// and browser per tool for the whole run, started before). Bars: tabmcp finishes every task, reads
// at most 1/3 of Playwright MCP's bytes and makes no more calls than it.
// Run: npx tsx bench/widgets.ts   (BENCH_QUICK=1: one round; WIDGETS_ONLY=tabmcp,playwrightMcp and
// WIDGETS_TASKS=tom-select,wizard narrow a run; WIDGETS_TRANSCRIPT=1 prints every failing transcript)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExampleServer } from '../examples/serve';
import { type Agent, newMachine, startAgent } from '../test-support/server-harness';
import { waitFor } from '../test-support/wait';
import { widgetTasks } from '../test-support/widget-tasks/catalog';
import type { TaskRun } from '../test-support/widget-tasks/drive';
import { buildCatalogPages } from '../test-support/widget-tasks/fixtures';
import { runOnDevtoolsMcp } from '../test-support/widget-tasks/run-devtools-mcp';
import { runOnPlaywrightMcp } from '../test-support/widget-tasks/run-playwright-mcp';
import { runOnTabmcp } from '../test-support/widget-tasks/run-tabmcp';
import type { WidgetTask } from '../test-support/widget-tasks/task';
import { startPeerOnChromium } from './lib/devtools-chromium';
import { iterations } from './lib/quick';
import { type Figure, machine, ratio, writeResult } from './lib/results';
import { median } from './lib/stats';

const RUNS = Number(process.env.WIDGETS_RUNS ?? iterations(2, 1));
const only = (variable: string) => process.env[variable]?.split(',').filter(Boolean);

/** One tool, started once for the whole run; `run` does one task as a fresh agent would. */
interface Contender {
  key: string;
  label: string;
  start(): Promise<{ run(task: WidgetTask): Promise<TaskRun>; close(): Promise<void> }>;
}

const files = mkdtempSync(join(tmpdir(), 'tabmcp-bench-widgets-'));
await buildCatalogPages();
const site = await startExampleServer();

/** A peer attached to its own headless Chromium over CDP (the judge reads pages through the same port). */
function peer(
  script: string,
  args: (cdpUrl: string) => string[],
  runner: typeof runOnPlaywrightMcp,
): Contender['start'] {
  return async () => {
    const started = await startPeerOnChromium(script, args, 'tabmcp-bench-widgets');
    return {
      // Playwright MCP takes files only from inside its roots (its working directory).
      run: (task) => runner(started.mcp, started.chrome.port, site.url, task, started.workDir),
      close: started.close,
    };
  };
}

const allContenders: Contender[] = [
  {
    key: 'tabmcp',
    label: 'tabmcp (page read with handles, act, derived tools; --input auto)',
    start: async () => {
      const home = await newMachine();
      const agent: Agent = await startAgent(home, ['--launch']);
      await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
      return {
        run: (task) => runOnTabmcp(agent, site.url, task, files),
        close: async () => {
          await agent.close();
          home.close();
        },
      };
    },
  },
  {
    key: 'playwrightMcp',
    label: 'Playwright MCP 0.0.83 (snapshot, refs)',
    start: peer('@playwright/mcp/cli.js', (url) => ['--cdp-endpoint', url], runOnPlaywrightMcp),
  },
  {
    key: 'chromeDevtoolsMcp',
    label: 'chrome-devtools-mcp 1.11.0 (snapshot, uids)',
    start: peer(
      'chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js',
      (url) => ['--browserUrl', url, '--usageStatistics=false', '--performanceCrux=false'],
      runOnDevtoolsMcp,
    ),
  },
];

const contenders = allContenders.filter((contender) => only('WIDGETS_ONLY')?.includes(contender.key) ?? true);
const tasks = widgetTasks.filter((task) => only('WIDGETS_TASKS')?.some((part) => task.id.includes(part)) ?? true);

interface Timed extends TaskRun {
  wallMs: number;
}
const results: Record<string, Record<string, Timed[]>> = {};
try {
  for (const contender of contenders) {
    const session = await contender.start();
    try {
      for (let round = 0; round < RUNS; round++)
        for (const task of tasks) {
          const started = performance.now();
          const run = { ...(await session.run(task)), wallMs: performance.now() - started };
          const byTool = results[task.id] ?? {};
          results[task.id] = byTool;
          byTool[contender.key] = [...(byTool[contender.key] ?? []), run];
          if (!run.done) {
            console.error(`${task.id} · ${contender.key}: not done; state ${JSON.stringify(run.state)}`);
            if (process.env.WIDGETS_TRANSCRIPT === '1') console.error(run.transcript);
            else console.error(run.transcript.split('\n').slice(-6).join('\n').slice(0, 1500));
          }
        }
    } finally {
      await session.close();
    }
  }
} finally {
  await site.close();
  rmSync(files, { recursive: true, force: true });
}

interface Row {
  success: string;
  done: boolean;
  calls: number;
  bytesRead: number;
  wallMsP50: number | null;
  failure?: string;
}
const rowOf = (runs: Timed[]): Row => {
  const good = runs.filter((run) => run.done);
  const last = good.at(-1) ?? runs.at(-1);
  return {
    success: `${good.length}/${runs.length}`,
    done: good.length === runs.length && runs.length > 0,
    calls: last?.calls ?? 0,
    bytesRead: last?.bytesRead ?? 0,
    wallMsP50: good.length ? Math.round(median(good.map((run) => run.wallMs))) : null,
    ...(good.length < runs.length
      ? {
          failure: runs
            .find((run) => !run.done)
            ?.transcript.split('\n')
            .slice(-4)
            .join('\n')
            .slice(0, 800),
        }
      : {}),
  };
};

const table: Record<string, Record<string, unknown>> = {};
const figures: Figure[] = [];
const verdicts: string[] = [];
const cell = (row: Row | undefined) =>
  row ? `${row.done ? '✓' : '✗'} ${row.calls} calls, ${row.bytesRead} B, ${row.wallMsP50 ?? '-'} ms` : '-';
console.log('task'.padEnd(44), ...contenders.map((contender) => contender.key.padEnd(36)));
for (const task of tasks) {
  const rows: Record<string, Row> = {};
  for (const contender of contenders) rows[contender.key] = rowOf(results[task.id]?.[contender.key] ?? []);
  const mine = rows.tabmcp;
  const pw = rows.playwrightMcp;
  const bytesRatio = mine && pw ? ratio(mine.bytesRead, pw.bytesRead) : undefined;
  const peerOnly = Object.entries(rows).some(([key, row]) => key !== 'tabmcp' && row.done) && mine?.done === false;
  const pass =
    mine?.done === true && !peerOnly && (!pw || (mine.bytesRead * 3 <= pw.bytesRead && mine.calls <= pw.calls));
  table[task.id] = {
    ask: task.ask,
    library: task.library,
    ...rows,
    ...(bytesRatio ? { bytesVsPlaywright: bytesRatio } : {}),
    pass,
  };
  console.log(task.id.padEnd(44), ...contenders.map((contender) => cell(rows[contender.key]).padEnd(36)));
  if (mine && !pass) verdicts.push(task.id);
  if (mine)
    figures.push({
      name: `${task.id} ("${task.ask}"): tabmcp bytes read`,
      value: mine.bytesRead,
      unit: 'B',
      ...(pw ? { beside: { label: 'Playwright MCP', value: pw.bytesRead } } : {}),
      bar: 'done; bytes ≤ 1/3 of Playwright MCP, calls ≤ its calls',
      pass,
      meaning: contenders
        .map((contender) => `${contender.key} ${cell(rows[contender.key])}`)
        .concat(bytesRatio ? [`bytes ${bytesRatio}× Playwright MCP's`] : [])
        .join('; '),
    });
}

const totals: Record<string, { done: number; tasks: number; calls: number; bytes: number }> = {};
for (const contender of contenders) {
  const rows = tasks.map((task) => table[task.id]?.[contender.key] as Row);
  totals[contender.key] = {
    done: rows.filter((row) => row.done).length,
    tasks: rows.length,
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    bytes: rows.reduce((sum, row) => sum + row.bytesRead, 0),
  };
}
for (const [key, total] of Object.entries(totals))
  console.log(`${key}: ${total.done}/${total.tasks} tasks done, ${total.calls} calls, ${total.bytes} B read`);
const mine = totals.tabmcp;
const pw = totals.playwrightMcp;
if (mine && pw)
  figures.unshift({
    name: `All ${tasks.length} tasks: tabmcp bytes read`,
    value: mine.bytes,
    unit: 'B',
    beside: { label: 'Playwright MCP', value: pw.bytes },
    bar: 'every task done; per task bytes ≤ 1/3 of Playwright MCP, calls ≤ its calls',
    pass: verdicts.length === 0,
    meaning: `${ratio(mine.bytes, pw.bytes)}× Playwright MCP's bytes; ${mine.calls} calls beside its ${pw.calls}; done: ${Object.entries(
      totals,
    )
      .map(([key, total]) => `${key} ${total.done}/${total.tasks}`)
      .join(', ')}${verdicts.length ? `; short of a bar: ${verdicts.join(', ')}` : ''}.`,
  });
console.log(verdicts.length ? `short of a bar: ${verdicts.join(', ')}` : 'every task meets the bars');

const file = writeResult('widgets', {
  name: 'widgets',
  meaning:
    "Every widget-gauntlet task (test-support/widget-tasks/catalog) done by a scripted agent through each MCP server; a run counts only when the library's own state, read over CDP, shows it done. Bytes are the tool lists plus every result's text the agent read; calls are its tool calls; wall time is the task's calls (p50 of the successful runs; servers and browsers started before).",
  machine: machine(),
  runs: RUNS,
  tasks: table,
  totals,
  figures,
});
console.log(`wrote ${file}`);
if (mine && mine.done < mine.tasks) process.exitCode = 1;
