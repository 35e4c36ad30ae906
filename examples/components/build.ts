import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const modules = join(here, '..', '..', 'node_modules');

/**
 * Builds the component-library fixtures of issue 23 into examples/components/dist: glue code only,
 * around libraries installed from npm (Shoelace, Material Web, Lit, DataTables), bundled as an app would ship
 * them. Shoelace's light theme is copied beside them. A second or two.
 */
export async function buildComponentFixtures(): Promise<void> {
  const out = join(here, 'dist');
  await build({
    entryPoints: {
      shoelace: join(here, 'shoelace.ts'),
      'lit-todo': join(here, 'lit-todo.ts'),
      datatable: join(here, 'datatable.ts'),
      material: join(here, 'material.ts'),
    },
    outdir: out,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    legalComments: 'none',
  });
  mkdirSync(out, { recursive: true });
  copyFileSync(
    join(modules, '@shoelace-style', 'shoelace', 'dist', 'themes', 'light.css'),
    join(out, 'shoelace-light.css'),
  );
}

if (process.argv[1] === import.meta.filename) await buildComponentFixtures();
