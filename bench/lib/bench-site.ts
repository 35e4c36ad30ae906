import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StaticSite, startStaticSite } from '../../examples/static-site';

const pagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'pages');
const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'page', 'dist');

export type BenchSite = StaticSite;

/** Serves bench/pages and the built page SDK (/sdk/tabmcp-page.js) on loopback. */
export function startBenchSite(): Promise<BenchSite> {
  return startStaticSite([
    { prefix: '/sdk/', dir: sdkDir },
    { prefix: '/', dir: pagesDir },
  ]);
}
