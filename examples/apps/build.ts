import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;

/**
 * Builds the framework fixture apps into examples/apps/dist (React with its JSX runtime, Vue with
 * its template compiler), as the apps' own tool chains would ship them. About a second.
 */
export async function buildApps(): Promise<void> {
  await build({
    entryPoints: { 'react-todo': join(here, 'react-todo.tsx'), 'vue-todo': join(here, 'vue-todo.ts') },
    outdir: join(here, 'dist'),
    bundle: true,
    minify: true,
    format: 'iife',
    jsx: 'automatic',
    alias: { vue: 'vue/dist/vue.esm-bundler.js' },
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    logLevel: 'warning',
  });
}

if (process.argv[1] === import.meta.filename) await buildApps();
