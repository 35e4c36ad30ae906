import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runChild } from '../scripts/run-child.mjs';
import { repoRoot } from './paths';

/**
 * Every benchmark still runs (bench/lib/quick.ts, `BENCH_QUICK=1`: its whole setup and a few
 * iterations, figures to the temp dir). Nothing ran them between measuring sessions, and
 * bench/proxy.ts failed ("no frame in time": its fake extension's token lacked the browser role
 * the proxy had come to require) for several sessions before anyone saw it (docs/decisions.md, 253).
 *
 * The benchmarks are split over three test files, each well within the runner's 180 s per file
 * (quick runs took 80 to 90 s each): e2e/bench-smoke-peers.test.ts runs those that drive the peers
 * (Playwright MCP, chrome-devtools-mcp) but real-apps.ts, e2e/bench-smoke-long.test.ts the two
 * longest, e2e/bench-smoke.test.ts every other one, so a new benchmark is run without being listed.
 * Left out: widgets.ts, two minutes even in its quick mode, whose tasks run on tabmcp in the
 * gauntlet-* tests; corpus.ts, every corpus task three ways (an hour), whose subset runs on tabmcp in
 * e2e/corpus.test.ts. dialogs.ts is in: its smoke run found a race in handle_dialog (docs/decisions.md,
 * 256 and 257).
 */
export const PEER_BENCHES = ['agent-task.ts', 'derived-click.ts', 'rivals.ts', 'rivals-start-rss.ts'];
export const LONG_BENCHES = ['real-apps.ts', 'soak.ts'];
const SKIPPED = ['widgets.ts', 'corpus.ts'];
const BENCH_TIMEOUT_MS = 120_000;

export function otherBenches(): string[] {
  return readdirSync(join(repoRoot, 'bench'))
    .filter((file) => file.endsWith('.ts') && ![...PEER_BENCHES, ...LONG_BENCHES, ...SKIPPED].includes(file))
    .sort();
}

/** Runs one benchmark in its quick mode; resolves with its exit code and the end of its output. */
async function runQuick(file: string, tempDir: string): Promise<{ code: number | null; output: string }> {
  const { status, output } = await runChild(process.execPath, ['--import', 'tsx', join('bench', file)], {
    cwd: repoRoot,
    env: { BENCH_QUICK: '1', TMPDIR: tempDir },
    timeoutMs: BENCH_TIMEOUT_MS,
  });
  return { code: status, output: output.slice(-4_000) };
}

/** One test per benchmark, run one after another (most start browsers). */
export function smokeRun(title: string, benches: string[]): void {
  describe(title, () => {
    const tempDir = mkdtempSync(join(tmpdir(), 'tabmcp-bench-smoke-'));
    after(() => rmSync(tempDir, { recursive: true, force: true }));
    for (const file of benches) {
      it(`bench/${file}`, { timeout: BENCH_TIMEOUT_MS + 10_000 }, async () => {
        const { code, output } = await runQuick(file, tempDir);
        assert.equal(code, 0, `bench/${file} (BENCH_QUICK=1) exited ${code}:\n${output}`);
      });
    }
  });
}
