// Runs every test file with Node's test runner.
// `--unit` skips e2e/ (the real-Chromium tests); package tests still start what they need (Redis, child processes).
// The unit files run as bundles (scripts/unit-bundles.mjs: each file with the sources it imports, built by esbuild
// in one go, node_modules left to Node): a file's process then starts in ~0.2 s of CPU instead of ~0.8 s through
// tsx, which halves the CPU of the unit run. A file that does not compile stops the whole unit run, with esbuild's
// message. `--tsx` runs the unit files through tsx instead, as the e2e files always run.
// Unit files run side by side, one more than there are cores: each picks free ports and keeps its own state, and
// each waits now and then (on Chromium, Redis, a child process), when the extra file uses the core (on this 2-core
// machine, 3 at once left 7 s of the cores idle in a run against 17 s with 2, and took 35-43 s against 41-44 s). The
// e2e files run one at a time after them: each starts browsers, and two at once on this 2-core machine would time
// each other out.
// The unit files start longest first (times from the last run, scripts/test-times.mjs), so the run ends when the
// longest file does rather than when a long file that happened to sort last does.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, sep } from 'node:path';
import { testOtherLines } from './node-lines.mjs';
import { readTestTimes } from './test-times.mjs';
import { bundleUnitTests } from './unit-bundles.mjs';

const unitOnly = process.argv.includes('--unit');
const throughTsx = process.argv.includes('--tsx');
// The whole suite (`npm test`) then runs the other supported Node lines (scripts/node-lines.mjs), outside
// the runner's per-file timeout; `node scripts/test.mjs node-lines` runs e2e/node-lines.test.ts and them.
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const withOtherLines = !unitOnly && (filters.length === 0 || filters.includes('node-lines'));

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (entry.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const roots = ['packages', 'test', ...(unitOnly ? [] : ['e2e'])];
const files = roots
  .flatMap((root) => findTests(root))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

// With no times recorded (a fresh checkout, CI), these go first: the longest unit files when last measured.
const LONGEST_WITHOUT_TIMES = [
  'packages/extension/test/dom-analysis.test.ts',
  'packages/extension/test/dom-trust.test.ts',
  'packages/proxy/test/cli-config.test.ts',
  'packages/extension/test/dom-composed.test.ts',
  'test/page-package.test.ts',
  'test/boundaries.test.ts',
];

/** Longest first: recorded seconds, else the list above, else unknown files (new ones) before known short ones. */
function longestFirst(testFiles) {
  const times = readTestTimes();
  const known = Object.keys(times).length > 0;
  const weight = (file) => {
    const name = file.split(sep).join('/');
    if (known) return times[name] ?? Number.POSITIVE_INFINITY;
    const rank = LONGEST_WITHOUT_TIMES.indexOf(name);
    return rank === -1 ? 0 : LONGEST_WITHOUT_TIMES.length - rank;
  };
  return [...testFiles].sort((a, b) => weight(b) - weight(a));
}

// Node's default output (spec on a terminal, tap otherwise before Node 23), plus the file times.
const defaultReporter = process.stdout.isTTY || Number(process.versions.node.split('.')[0]) >= 23 ? 'spec' : 'tap';

/** One runner for the files: bundles (unit files) with plain `node`, else the TypeScript files through tsx. */
function run(testFiles, concurrency, { bundled = false } = {}) {
  if (testFiles.length === 0) return 0;
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=tabmcp-source',
      ...(bundled ? ['--enable-source-maps'] : ['--import', 'tsx']),
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=180000',
      `--test-reporter=${defaultReporter}`,
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(import.meta.dirname, 'test-times.mjs')}`,
      '--test-reporter-destination=stderr',
      ...testFiles,
    ],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}

const isEndToEnd = (file) => file.startsWith(`e2e${sep}`) || file.startsWith('e2e/');
const unitFiles = longestFirst(files.filter((file) => !isEndToEnd(file)));
const unitConcurrency = availableParallelism() + 1;
let unitStatus;
if (throughTsx) unitStatus = run(unitFiles, unitConcurrency);
else {
  const { bundles, remove } = await bundleUnitTests(unitFiles).catch(() => {
    console.error('The unit test files did not bundle: esbuild says why above.');
    process.exit(1);
  });
  try {
    unitStatus = run(bundles, unitConcurrency, { bundled: true });
  } finally {
    remove();
  }
}
const endToEndStatus = run(files.filter(isEndToEnd), 1);
if (unitStatus || endToEndStatus) process.exit(unitStatus || endToEndStatus);
if (withOtherLines && !(await testOtherLines())) process.exit(1);
