// `npm run fuzz`: every fuzz suite (packages/*/test/fuzz-*.test.ts) at full strength, 100,000 inputs per parser
// (TABMCP_FUZZ_RUNS to change it), one file at a time and outside `npm test` and its per-file timeout: the bar of
// issue 26. Writes what ran, how long each file took and what failed to bench/results/fuzz.json
// (`--no-write` keeps the file as it is, for a quick look).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.TABMCP_FUZZ_RUNS ?? 100_000);
const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
// One hour per file: a hang still ends, and the slowest suite at 100,000 inputs takes minutes.
const FILE_TIMEOUT_MS = 3_600_000;

const files = readdirSync(join(root, 'packages'))
  .flatMap((pkg) => {
    const dir = join(root, 'packages', pkg, 'test');
    try {
      return readdirSync(dir)
        .filter((name) => name.startsWith('fuzz-') && name.endsWith('.test.ts'))
        .map((name) => join(dir, name));
    } catch {
      return [];
    }
  })
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

// The stdio and link suites drive the built tabmcp.
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// Two files at a time (`--jobs=<n>` to change): most of a socket fuzz is waiting on the other end.
const jobsArg = process.argv.find((arg) => arg.startsWith('--jobs='));
const jobs = Math.max(1, Number(jobsArg?.slice('--jobs='.length) ?? 2) || 1);

function runFile(file) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--conditions=tabmcp-source', '--import', 'tsx', '--test', `--test-timeout=${FILE_TIMEOUT_MS}`, file],
      { cwd: root, env: { ...process.env, TABMCP_FUZZ_RUNS: String(runs) }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-8_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (status) => {
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      const passed = status === 0;
      const name = relative(root, file);
      console.error(`${passed ? 'ok  ' : 'FAIL'} ${name}: ${seconds} s`);
      if (!passed) console.error(output);
      resolve({ file: name, inputsPerParser: runs, seconds, passed });
    });
  });
}

const results = [];
const queue = [...files];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) results.push(await runFile(file));
  }),
);
results.sort((a, b) => a.file.localeCompare(b.file));

if (!process.argv.includes('--no-write')) {
  const out = join(root, 'bench', 'results', 'fuzz.json');
  const summary = { date: new Date().toISOString(), node: process.version, jobs, files: results };
  writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  console.error(`wrote ${relative(root, out)}`);
}
if (results.some((result) => !result.passed)) process.exit(1);
