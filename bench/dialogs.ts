// Issue 23: how soon a call that opens a native dialog answers that it is open, beside the same
// call on a button that opens none (the floor: one derived-tool click with its settle); and the
// gauntlet's dialog and widget tasks through tabmcp alone (calls and bytes read, each checked on
// the page over CDP). Run: npx tsx bench/dialogs.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGauntlet } from '../examples/gauntlet/build';
import { gauntletAgent } from '../test-support/gauntlet-agent';
import { textOf, waitFor } from '../test-support/harness';
import { evaluateIn } from '../test-support/page-eval';
import { startScene } from '../test-support/server-harness';
import { iterations } from './lib/quick';
import { machine, ratio, writeResult } from './lib/results';
import { summarize } from './lib/stats';

const RUNS = iterations(20, 3);

await buildGauntlet();
const files = mkdtempSync(join(tmpdir(), 'tabmcp-bench-upload-'));
const scene = await startScene(['--launch']);
const { agent } = scene;
try {
  await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  const open = (page: string) => agent.json('open_tab', { url: `${scene.site.url}/gauntlet/${page}` });
  const state = <T>(page: string, expression: string) => evaluateIn<T>(agent.stderr, page, expression);
  const timed = async (tool: string) => {
    const started = performance.now();
    const result = await agent.call(tool);
    return { ms: performance.now() - started, text: textOf(result) };
  };

  await open('dialogs.html');
  const series: Record<string, number[]> = { floor: [], alert: [], confirm: [], prompt: [] };
  const tools: Record<string, string> = {
    alert: 'click_say_hello',
    confirm: 'delete',
    prompt: 'click_rename_the_phone_bill',
  };
  for (let run = 0; run < RUNS; run++) {
    series.floor?.push((await timed('click_mark_all_seen')).ms);
    for (const [kind, tool] of Object.entries(tools)) {
      const { ms, text } = await timed(tool);
      if (!text.includes(`"kind":"${kind}"`)) throw new Error(`${tool} did not report a ${kind}: ${text}`);
      series[kind]?.push(ms);
      // Dismissed, so the confirm's row stays for the next run.
      await agent.json('handle_dialog', { accept: false });
    }
  }
  const latency = Object.fromEntries(Object.entries(series).map(([key, samples]) => [key, summarize(samples)]));
  const floor = latency.floor?.p50 ?? Number.NaN;
  process.stdout.write(`Call to "dialog open" answer, ${RUNS} runs each (ms):\n`);
  for (const [key, summary] of Object.entries(latency)) {
    process.stdout.write(
      `  ${key.padEnd(8)} p50 ${summary.p50.toFixed(1).padStart(7)}  p90 ${summary.p90.toFixed(1).padStart(7)}  max ${summary.max.toFixed(1).padStart(7)}${key === 'floor' ? '  (a click that opens no dialog)' : `  ${ratio(summary.p50, floor)}× the floor; bar 1,000 ms`}\n`,
    );
  }

  // The gauntlet's tasks as a user words them, each checked on the page itself.
  const report = join(files, 'report.pdf');
  writeFileSync(report, '%PDF-1.4 tabmcp gauntlet\n');
  const tasks: {
    task: string;
    page: string;
    run(script: ReturnType<typeof gauntletAgent>): Promise<void>;
    check: string;
  }[] = [
    {
      task: 'delete "Pay rent" (confirm)',
      page: 'dialogs.html',
      run: async (script) => {
        await script.call('delete');
        await script.call('handle_dialog', { accept: true });
      },
      check: 'window.billState.deleted === true',
    },
    {
      task: 'finish the checkout wizard (ends in alert)',
      page: 'wizard.html',
      run: async (script) => {
        await script.call('act', {
          handle: await script.handleOf('Your name'),
          action: 'fill',
          value: 'Ada',
          submit: true,
        });
        await script.call('act', { handle: await script.handleOf('Speed'), action: 'select', value: 'express' });
        await script.call('act', { handle: await script.handleOf('Next'), action: 'click' });
        await script.call('act', { handle: await script.handleOf('Place order'), action: 'click' });
        await script.call('handle_dialog', { accept: true });
      },
      check: 'window.wizard.placed === true',
    },
    {
      task: 'pick Canada (Tom Select)',
      page: 'country.html',
      run: async (script) => {
        await script.call('act', {
          handle: await script.handleOf('combobox "Country"'),
          action: 'fill',
          value: 'Cana',
        });
        await script.call('act', { handle: await script.handleOf('option "Canada"'), action: 'click' });
      },
      check: 'window.countryPicked() === "CA"',
    },
    {
      task: 'move "Pay rent" to Done (SortableJS)',
      page: 'kanban.html',
      run: async (script) => {
        const card = await script.handleOf('Pay rent');
        await script.call('act', { handle: card, action: 'drag', value: await script.handleOf('File taxes') });
      },
      check: 'window.board().done.includes("rent")',
    },
    {
      task: 'upload report.pdf',
      page: 'pointer.html',
      run: async (script) => {
        await script.call('act', { handle: await script.handleOf('Attach a report'), action: 'upload', value: report });
      },
      check: 'window.chores.attached?.name === "report.pdf"',
    },
    {
      task: 'remove "Call mom" (button shown on hover)',
      page: 'pointer.html',
      run: async (script) => {
        await script.call('act', { handle: await script.handleOf('Call mom'), action: 'hover' });
        await script.call('act', { handle: await script.handleOf('Remove'), action: 'click' });
      },
      check: 'window.chores.removed.includes("mom")',
    },
  ];
  const table: { task: string; passes: boolean; calls: number; bytesRead: number }[] = [];
  for (const { task, page, run, check } of tasks) {
    await open(page);
    const script = gauntletAgent(agent);
    await run(script).catch(() => {});
    const passes = (await state<boolean>(page, check).catch(() => false)) === true;
    table.push({ task, passes, calls: script.calls, bytesRead: script.bytesRead });
  }
  process.stdout.write('\n| task | passes | calls | bytes read |\n|---|---|---|---|\n');
  for (const row of table)
    process.stdout.write(`| ${row.task} | ${row.passes ? 'yes' : 'NO'} | ${row.calls} | ${row.bytesRead} |\n`);
  process.stdout.write(
    '(tabmcp only: the peers are measured by bench/real-apps.ts style runs, not yet on these pages)\n',
  );
  const file = writeResult('dialogs', { machine: machine(), runs: RUNS, latencyMs: latency, tasks: table });
  process.stdout.write(`\n${file}\n`);
} finally {
  await scene.close();
  rmSync(files, { recursive: true, force: true });
}
