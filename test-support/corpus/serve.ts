import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type StaticSite, startStaticSite } from '../../examples/static-site';
import { repoRoot } from '../paths';

/** Where scripts/corpus-layout.mjs lays out the fetched part of the corpus (git-ignored). */
const corpusDir = join(repoRoot, 'corpus');
const todomvcDir = join(corpusDir, 'todomvc');
const ariaDir = join(corpusDir, 'aria-practices');

/** Whether a fetched source is laid out here (it is not on CI nor on a new machine). */
export const laidOut = {
  todomvc: existsSync(join(todomvcDir, 'PINNED')),
  ariaPractices: existsSync(join(ariaDir, 'PINNED')),
};

/**
 * Serves the corpus on loopback at the paths its repositories use: TodoMVC's /examples/… (the
 * Ember build loads its assets by that absolute path), ARIA Practices' /content/…, and the pages
 * built from npm libraries under /corpus-libs/ (examples/corpus-libs).
 */
export function startCorpusSite(): Promise<StaticSite> {
  return startStaticSite([
    { prefix: '/examples/', dir: join(todomvcDir, 'examples') },
    { prefix: '/content/', dir: join(ariaDir, 'content') },
    { prefix: '/corpus-libs/', dir: join(repoRoot, 'examples', 'corpus-libs') },
  ]);
}
