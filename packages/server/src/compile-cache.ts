import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateFolder } from './launcher/profile-root';

/** `module.enableCompileCache` (Node 22.1 and later); @types/node 20 does not know it. */
type EnableCompileCache = (cacheDir?: string) => unknown;

/**
 * Keeps V8's compiled code of tabmcp's modules on disk (Node's own compile cache, Node 22.1 and
 * later; Node 20 has none), so every start after the first skips compiling them: on Node 22,
 * `initialize` answers some 20–50 ms sooner after spawn (docs/decisions.md, 258). Call it before
 * the modules it should cover are imported.
 *
 * The cache goes in this user's private temp folder (launcher/profile-root.ts), not in Node's
 * default `<tmp>/node-compile-cache`, which any local user could create first and fill with code
 * for this user's node to load. NODE_COMPILE_CACHE, when set, is the user's choice and wins;
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be set up only costs the speed.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!enable) return;
  try {
    enable(env.NODE_COMPILE_CACHE ? undefined : join(ensurePrivateFolder(tmpdir()), 'node-compile-cache'));
  } catch {
    // A private folder another user planted, or a read-only temp dir: start without the cache.
  }
}
