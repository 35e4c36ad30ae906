import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { NODE_LINES, nodeOfLine, runningLine } from '../scripts/node-lines.mjs';
import { repoRoot } from '../test-support/paths';

/** npm's own semver, to read engines as `npm install` does (it warns EBADENGINE on a mismatch). */
function npmSemver(): { satisfies(version: string, range: string): boolean } {
  const npmRoot = join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm');
  return createRequire(join(npmRoot, 'package.json'))('semver');
}

/**
 * Issue 28: tabmcp runs on Node 20, 22 and 24. `npm test` runs the whole suite on its own line, then
 * the unit tests and a real-Chromium smoke test on the two others (scripts/node-lines.mjs, outside
 * the runner's per-file timeout). Here: that this run is on a supported line, and that every locked
 * package installs on each line without an engine warning (Angular 22 warned under Node 20).
 */
describe('Node lines 20, 22 and 24', () => {
  it('this run is on one of them', () => {
    assert.ok(NODE_LINES.includes(runningLine()), process.version);
  });

  it('every locked package installs without an engine warning on each line', () => {
    const semver = npmSemver();
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    for (const line of NODE_LINES) {
      const version = execFileSync(nodeOfLine(line), ['--version'], { encoding: 'utf8' }).trim().slice(1);
      const unmet = Object.entries(lock.packages)
        .filter(([, entry]) => entry.engines?.node && !semver.satisfies(version, entry.engines.node))
        .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')} (${entry.engines?.node})`);
      assert.deepEqual(unmet, [], `Node ${version}`);
    }
  });
});
