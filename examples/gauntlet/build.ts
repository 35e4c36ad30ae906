import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;

/**
 * Builds the gauntlet's fixture pages (issue 23) into examples/gauntlet/dist: real component
 * libraries from npm with a few lines of glue each, bundled as a site would ship them.
 */
export async function buildGauntlet(): Promise<void> {
  await build({
    entryPoints: {
      kanban: join(here, 'kanban.ts'),
      country: join(here, 'country.ts'),
      // The library's own stylesheet, as a site links it.
      'tom-select': join(here, '..', '..', 'node_modules', 'tom-select', 'dist', 'css', 'tom-select.css'),
    },
    outdir: join(here, 'dist'),
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (process.argv[1] === import.meta.filename) await buildGauntlet();
