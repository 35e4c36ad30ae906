// Runs every test file with Node's test runner (tsx for TypeScript).
// `--unit` skips e2e/ (the real-Chromium tests); package tests still start what they need (Redis, child processes).
// Unit files run side by side, one per core: each picks free ports and keeps its own state. The e2e files run one
// at a time after them: each starts browsers, and two at once on this 2-core machine would time each other out.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, sep } from 'node:path';

const unitOnly = process.argv.includes('--unit');
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

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

function run(testFiles, concurrency) {
  if (testFiles.length === 0) return 0;
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=tabmcp-source',
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=180000',
      ...testFiles,
    ],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}

const isEndToEnd = (file) => file.startsWith(`e2e${sep}`) || file.startsWith('e2e/');
const unitStatus = run(
  files.filter((file) => !isEndToEnd(file)),
  Math.max(1, availableParallelism()),
);
const endToEndStatus = run(files.filter(isEndToEnd), 1);
process.exit(unitStatus || endToEndStatus);
