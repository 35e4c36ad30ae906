import { ariaPracticesTasks } from './aria-practices';
import type { CorpusSource, CorpusTask } from './kinds';
import { npmLibraryTasks } from './npm-libraries';
import { laidOut } from './serve';
import { todomvcTasks } from './todomvc';

/** Every corpus task, by source; the fetched sources only where scripts/corpus-layout.mjs laid them out. */
export const corpusTasks: Record<CorpusSource, CorpusTask[]> = {
  todomvc: todomvcTasks,
  'aria-practices': ariaPracticesTasks,
  npm: npmLibraryTasks,
};

/** Whether a source's pages are here to open (the npm pages are built from node_modules, always). */
export const available: Record<CorpusSource, boolean> = {
  todomvc: laidOut.todomvc,
  'aria-practices': laidOut.ariaPractices,
  npm: true,
};

/** The one line a run prints for each fetched source that is not laid out, saying how to lay it out. */
export function missingSources(): string[] {
  return (Object.keys(available) as CorpusSource[])
    .filter((source) => !available[source])
    .map(
      (source) =>
        `corpus: ${source} is not laid out (node scripts/corpus-layout.mjs, from a mirror): its ${corpusTasks[source].length} tasks skip`,
    );
}
