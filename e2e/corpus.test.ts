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
 * Tasks tabmcp still fails (bench/results/corpus.json), each with what explains it: they run, and report
 * as todo until fixed. Delete an entry once its fix lands. None since stop 37.
 */
const KNOWN_FAILING: Record<string, string> = {};

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
