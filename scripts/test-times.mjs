// A node:test reporter (scripts/test.mjs adds it beside the usual one): how long each test file took,
// as the sum of its top-level tests, merged into node_modules/.cache/tabmcp/test-times.json. The next
// run starts the longest unit files first, so that no long file starts last and runs on alone.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceOfBundle } from './unit-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TIMES_FILE = join(root, 'node_modules', '.cache', 'tabmcp', 'test-times.json');

/** Seconds per test file (paths relative to the repository, with `/`), from earlier runs; {} if none. */
export function readTestTimes() {
  try {
    return JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
  } catch {
    return {};
  }
}

export default async function* testTimes(source) {
  const seconds = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (!file || nesting !== 0) continue;
    const name = sourceOfBundle(file);
    seconds[name] = (seconds[name] ?? 0) + (details?.duration_ms ?? 0) / 1000;
  }
  if (Object.keys(seconds).length === 0) return;
  try {
    mkdirSync(dirname(TIMES_FILE), { recursive: true });
    writeFileSync(TIMES_FILE, `${JSON.stringify({ ...readTestTimes(), ...seconds }, null, 1)}\n`);
  } catch (error) {
    // Only the order of the next run depends on it.
    yield `test-times: could not record the file times (${error.message})\n`;
  }
}
