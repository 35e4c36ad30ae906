import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { NODE_LINES, nodeOfLine, runningLine } from '../test-support/node-lines';
import { repoRoot } from '../test-support/paths';

/**
 * Issue 28: tabmcp says it runs on Node 20, 22 and 24, so each line runs the unit tests and one
 * end-to-end smoke test (the lazy --launch: a real Chromium, the built extension, the MCP SDK
 * client). The line `npm test` itself runs on is covered by the rest of the suite; the others run
 * here, with node builds from the npm registry.
 */
const SMOKE = 'e2e/lazy-launch.test.ts';
/** The unit suite takes a few minutes on a busy machine; one line's run must not hit the 3-minute default. */
const LINE_TIMEOUT_MS = 15 * 60_000;

/** Runs scripts/test.mjs with that node; the tail of its output for a failure message. */
function runTests(node: string, args: string[]): Promise<{ status: number | null; tail: string }> {
  return new Promise((resolve) => {
    // Without NODE_TEST_CONTEXT: inherited from this test, it makes the inner runner report to us
    // as a subtest and exit 0 at once, whatever its tests do.
    const { NODE_TEST_CONTEXT: _inherited, ...env } = process.env;
    const child = spawn(node, [join(repoRoot, 'scripts', 'test.mjs'), ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), LINE_TIMEOUT_MS);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, tail: output });
    });
  });
}

/** A line's unit tests, then its smoke test; the failure message names the line and the run. */
async function testLine(line: number): Promise<string | undefined> {
  const node = nodeOfLine(line);
  for (const [what, args] of [
    ['unit tests', ['--unit']],
    [SMOKE, [SMOKE]],
  ] as const) {
    const run = await runTests(node, [...args]);
    // The runner's own summary (TAP "# pass N" or spec "ℹ pass N"): tests ran, and none failed.
    const passed = Number(/(?:#|ℹ) pass (\d+)/.exec(run.tail)?.[1] ?? 0);
    const failed = Number(/(?:#|ℹ) fail (\d+)/.exec(run.tail)?.[1] ?? -1);
    if (run.status !== 0 || passed === 0 || failed !== 0)
      return `${what} on Node ${line}: exit ${run.status}, ${passed} passed, ${failed} failed:\n${run.tail}`;
  }
  return undefined;
}

/** npm's own semver, to read engines as `npm install` does (it warns EBADENGINE on a mismatch). */
function npmSemver(): { satisfies(version: string, range: string): boolean } {
  const npmRoot = join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm');
  return createRequire(join(npmRoot, 'package.json'))('semver');
}

describe('Node lines 20, 22 and 24', () => {
  it('this run is on one of them', () => {
    assert.ok((NODE_LINES as readonly number[]).includes(runningLine()), process.version);
  });

  it('every locked package installs without an engine warning on each line', () => {
    const semver = npmSemver();
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    for (const line of NODE_LINES) {
      const version = spawnSync(nodeOfLine(line), ['--version'], { encoding: 'utf8' }).stdout.trim().slice(1);
      const unmet = Object.entries(lock.packages)
        .filter(([, entry]) => entry.engines?.node && !semver.satisfies(version, entry.engines.node))
        .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} (${entry.engines?.node})`);
      assert.deepEqual(unmet, [], `Node ${version}`);
    }
  });

  // The two other lines run side by side: each is a few minutes of mostly single-threaded work, and
  // `npm test` as a whole must stay within CI's 30 minutes.
  const others = NODE_LINES.filter((candidate) => candidate !== runningLine());
  it(`Node ${others.join(' and ')}: the unit tests and the smoke test pass`, {
    timeout: 2 * LINE_TIMEOUT_MS,
  }, async () => {
    const failures = (await Promise.all(others.map((line) => testLine(line)))).filter(Boolean);
    assert.deepEqual(failures, []);
  });
});
