import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { enableCompileCache } from '../src/compile-cache';
import { privateFolderPath } from '../src/launcher/profile-root';

/** Node 22.1 and later; @types/node 20 does not know these. */
const cacheApi = nodeModule as { enableCompileCache?: unknown; getCompileCacheDir?: () => string | undefined };

// Once enabled, a process's compile cache stays on: the refused case runs first, in this one process.
describe('the compile cache (decision 258)', { skip: cacheApi.enableCompileCache ? false : 'Node 20 has none' }, () => {
  const realTmp = process.env.TMPDIR;
  const base = tmpdir();
  const roots: string[] = [];
  const freshTemp = () => {
    const root = mkdtempSync(join(base, 'tabmcp-compile-cache-'));
    roots.push(root);
    return root;
  };
  after(() => {
    if (realTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = realTmp;
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('is not used in a private folder another user could have planted, and starting goes on', () => {
    const root = freshTemp();
    const planted = privateFolderPath(root);
    mkdirSync(planted);
    chmodSync(planted, 0o777);
    process.env.TMPDIR = root;
    enableCompileCache({});
    assert.equal(cacheApi.getCompileCacheDir?.(), undefined);
    assert.deepEqual(readdirSync(planted), []);
  });

  it("goes into this user's private temp folder and keeps the modules loaded after it", async () => {
    const root = freshTemp();
    process.env.TMPDIR = root;
    enableCompileCache({});
    const dir = join(privateFolderPath(root), 'node-compile-cache');
    // Node keeps a folder per Node version inside.
    assert.ok(cacheApi.getCompileCacheDir?.()?.startsWith(`${dir}/`), cacheApi.getCompileCacheDir?.());
    await import('../src/link/failed-reply');
    (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
    assert.ok(readdirSync(dir).length > 0, 'nothing was written to the cache');
  });
});
