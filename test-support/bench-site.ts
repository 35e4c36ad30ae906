import { join } from 'node:path';
import { type StaticSite, startStaticSite } from '../examples/static-site';
import { repoRoot } from './paths';

const pagesDir = join(repoRoot, 'bench', 'pages');
const sdkDir = join(repoRoot, 'packages', 'page', 'dist');

export type BenchSite = StaticSite;

/** Serves bench/pages and the built page SDK (/sdk/tabmcp-page.js) on loopback. */
export function startBenchSite(): Promise<BenchSite> {
  return startStaticSite([
    { prefix: '/sdk/', dir: sdkDir },
    { prefix: '/', dir: pagesDir },
  ]);
}
