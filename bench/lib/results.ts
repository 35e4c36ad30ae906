import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../test-support/paths';
import { QUICK } from './quick';

const resultsDir = QUICK ? join(tmpdir(), 'tabmcp-bench-quick') : join(repoRoot, 'bench', 'results');

/** Where and when a figure was measured, so a JSON file stands on its own. */
export function machine() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    nodeOptions: process.env.NODE_OPTIONS ?? '',
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    browser: '/usr/bin/chromium (headless)',
    /** 1, 5 and 15 minute load averages as the run ended: on a shared machine, how noisy its figures are. */
    loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
  };
}

export function writeResult(name: string, body: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}

export function ratio(value: number, floor: number): number {
  return Math.round((value / floor) * 100) / 100;
}

/**
 * A headline figure for bench/results/summary.md: the value beside the floor or rival it is judged
 * against, with a one-line meaning and the bar it must meet.
 */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  beside?: { label: string; value: number };
  bar?: string;
  pass?: boolean;
  meaning: string;
}
