import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { withFailureClass, zodFailureShape } from '../scripts/zod-failure-shape.mjs';

const root = join(import.meta.dirname, '..');
const zodParseSource = readFileSync(join(root, 'node_modules/zod/v4/core/parse.js'), 'utf8');

interface Failure {
  success: boolean;
  error: { name: string; issues: { code: string; path: unknown[] }[]; message: string };
}
interface Probe {
  failed: () => Failure;
  failedAsync: () => Promise<Failure>;
  passed: () => { success: boolean; data: unknown };
  replacement: Failure['error'];
}

const PROBE = `import { z } from 'zod';
const schema = z.object({ id: z.number() });
export const failed = () => schema.safeParse({ id: 'seven' });
export const failedAsync = () => schema.safeParseAsync({ id: 'seven' });
export const passed = () => schema.safeParse({ id: 7 });
export const replacement = new z.ZodError([]);
`;

/** zod bundled the way build.mjs bundles it, with and without the rewrite. */
async function bundleProbe(dir: string, name: string, rewrite: boolean): Promise<Probe> {
  const entry = join(dir, `${name}-entry.mjs`);
  writeFileSync(entry, PROBE);
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    logLevel: 'silent',
    nodePaths: [join(root, 'node_modules')],
    plugins: rewrite ? [zodFailureShape] : [],
  });
  return (await import(pathToFileURL(outfile).href)) as Probe;
}

describe("zod's safeParse failure, rewritten at build (scripts/zod-failure-shape.mjs)", () => {
  let dir: string;
  let rewritten: Probe;
  let original: Probe;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zod-failure-shape-'));
    [rewritten, original] = await Promise.all([
      bundleProbe(dir, 'rewritten', true),
      bundleProbe(dir, 'original', false),
    ]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the accessor off each failure, so no accessor pair is allocated per failed parse', () => {
    assert.ok(
      Object.getOwnPropertyDescriptor(original.failed(), 'error')?.get,
      'zod itself puts a getter on each failure',
    );
    const failure = rewritten.failed();
    assert.equal(Object.getOwnPropertyDescriptor(failure, 'error'), undefined);
    assert.equal(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(failure), 'error')?.get, 'function');
  });

  it('answers as zod does: success false, the same lazily built ZodError on every read, a settable error', async () => {
    for (const failure of [rewritten.failed(), await rewritten.failedAsync()]) {
      const expected = original.failed();
      assert.equal(failure.success, false);
      assert.equal('error' in failure, true);
      assert.equal(failure.error.name, 'ZodError');
      assert.deepEqual(failure.error.issues, expected.error.issues);
      assert.equal(failure.error.message, expected.error.message);
      assert.equal(failure.error, failure.error, 'the error is built once');
    }
    const failure = rewritten.failed();
    failure.error = rewritten.replacement;
    assert.equal(failure.error, rewritten.replacement);
    assert.deepEqual(rewritten.passed(), { success: true, data: { id: 7 } });
  });

  it('fails the build, saying what to check, when zod no longer has the failure() it rewrites', () => {
    assert.doesNotThrow(() => withFailureClass(zodParseSource));
    const changed = zodParseSource.replace('get error()', 'get problem()');
    assert.throws(() => withFailureClass(changed), /no longer has the failure\(\)/);
  });
});
