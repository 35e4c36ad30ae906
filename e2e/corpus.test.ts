import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCorpusLibraries } from '../examples/corpus-libs/build';
import { available, corpusTasks, missingSources } from '../test-support/corpus/catalog';
import type { CorpusTask } from '../test-support/corpus/kinds';
import { startCorpusSite } from '../test-support/corpus/serve';
import { waitFor } from '../test-support/harness';
import { type Agent, newMachine, startAgent } from '../test-support/server-harness';
import { runOnTabmcp } from '../test-support/widget-tasks/run-tabmcp';

/**
 * Issue 37, the corpus within CI's time: tasks on apps nobody here wrote, through tabmcp only (the
 * three-way run is bench/corpus.ts), each judged by the app's own state over CDP. Always: every
 * npm-library task (npm installs them). Where scripts/corpus-layout.mjs laid out the fetched part:
 * one task per ARIA Practices pattern, and a few TodoMVC apps that rotate by the day.
 */

/**
 * Tasks tabmcp failed in the first corpus run (bench/results/corpus.json), each with the finding that
 * explains it (docs/history/decision-log.md, Stop 36 (corpus)): they run, and report as todo until fixed.
 */
const KNOWN_FAILING: Record<string, string> = {
  'todomvc/angular/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/angularjs_require/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/aurelia/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/backbone/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/backbone_marionette/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/backbone_require/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/binding-scala/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/canjs/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/canjs_require/add-two-tick-one':
    'the app renders after the first reads (RequireJS): every tool misses it at times; then finding 1',
  'todomvc/closure/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/dijon/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/elm/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/enyo_backbone/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/exoskeleton/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/javascript-es6/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/jquery/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/js_of_ocaml/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/jsblocks/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/knockback/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/knockoutjs/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/knockoutjs_require/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/lavaca_require/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/lit/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/mithril/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/polymer/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/preact/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/ractive/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/react-redux/add-two-tick-one':
    'the box is named "New todo" and the step looks for its placeholder: every tool misses it (a task to fix)',
  'todomvc/reagent/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/riotjs/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/svelte/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/typescript-backbone/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/typescript-react/add-two-tick-one':
    "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'todomvc/vue/add-two-tick-one': "finding 1: the row checkbox (opacity: 0 under its label's drawing) is dropped",
  'aria-practices/checkbox-mixed/all-condiments': 'finding 6: a mixed checkbox counts as checked',
  'aria-practices/combobox-datepicker/next-month-15': 'finding 4: clickable grid cells read as plain text',
  'aria-practices/grid-combo/apple': 'finding 4: clickable grid cells read as plain text',
  'aria-practices/datepicker-dialog/next-month-15': 'finding 4: clickable grid cells read as plain text',
  'aria-practices/layout-grids/remove-recipient': 'finding 5: the pill grid is missing from the read',
  'aria-practices/radio-rating/four-stars': 'finding 2: SVG widgets are dropped',
  'aria-practices/slider-seek/start': 'finding 2: SVG widgets are dropped',
  'aria-practices/slider-temperature/max': 'finding 2: SVG widgets are dropped',
  'aria-practices/slider-multithumb/min-0': 'finding 2: SVG widgets are dropped',
  'aria-practices/treeview-1a/open-reports': 'finding 3: tree items lose their names',
  'aria-practices/treeview-1b/project-3a': 'finding 3: tree items lose their names',
  'npm/naive-ui/country-canada': 'finding 7: a select drawn as a box of text cannot be chosen from',
  'npm/bits-ui/theme-solarized': 'finding 8: select answers done, the app holds nothing',
  'npm/react-virtuoso/open-last-order': 'finding 9: rows of a scrolled virtual list leave the read',
  'npm/ace/type-note': "finding 10: Ace's input textarea is dropped",
};

/** The first task of each ARIA Practices pattern (its library names the pattern). */
function onePerPattern(tasks: CorpusTask[]): CorpusTask[] {
  const seen = new Set<string>();
  return tasks.filter((task) => !seen.has(task.library) && seen.add(task.library));
}

/** `count` TodoMVC apps, a different few each day, so that over a month every app runs on CI's machines. */
function rotating(tasks: CorpusTask[], count: number, day = Math.floor(Date.now() / 86_400_000)): CorpusTask[] {
  return Array.from(
    { length: Math.min(count, tasks.length) },
    (_, index) => tasks[(day * count + index) % tasks.length],
  ).filter((task): task is CorpusTask => task !== undefined);
}

const subset = [
  ...corpusTasks.npm,
  ...(available['aria-practices'] ? onePerPattern(corpusTasks['aria-practices']) : []),
  ...(available.todomvc ? rotating(corpusTasks.todomvc, 3) : []),
];

describe('corpus: apps nobody here wrote, through tabmcp', () => {
  let agent: Agent;
  let machine: Awaited<ReturnType<typeof newMachine>>;
  let site: Awaited<ReturnType<typeof startCorpusSite>>;
  let files: string;
  const costs: string[] = [];

  before(async () => {
    for (const line of missingSources()) process.stderr.write(`${line}\n`);
    await buildCorpusLibraries();
    files = mkdtempSync(join(tmpdir(), 'tabmcp-corpus-files-'));
    site = await startCorpusSite();
    machine = await newMachine();
    agent = await startAgent(machine, ['--launch']);
    await waitFor(async () => (await agent.call('connect_browser')).isError !== true, 20_000, 'the browser');
  });
  after(async () => {
    process.stderr.write(`corpus: ${costs.join('; ')}\n`);
    await agent?.close();
    machine?.close();
    await site?.close();
    rmSync(files, { recursive: true, force: true });
  });

  for (const task of subset)
    it(`${task.library}: "${task.ask}"`, { todo: KNOWN_FAILING[task.id] }, async () => {
      const run = await runOnTabmcp(agent, site.url, task, files);
      costs.push(`${task.id}: ${run.calls} calls, ${run.bytesRead} B`);
      assert.ok(run.done, `not done; the app's state: ${JSON.stringify(run.state)}\n${run.transcript}`);
    });
});
