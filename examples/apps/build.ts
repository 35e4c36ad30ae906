import { join } from 'node:path';
import { build } from 'esbuild';
import { frameworkBuild } from '../framework-build';

const here = import.meta.dirname;

/**
 * Builds the framework fixture apps into examples/apps/dist, as each framework's own tool chain
 * would ship them: React with its JSX runtime, Vue with its template compiler, Svelte compiled,
 * Angular compiled in the browser (JIT, zoneless). A few seconds.
 */
export async function buildApps(): Promise<void> {
  await build({
    entryPoints: {
      'react-todo': join(here, 'react-todo.tsx'),
      'vue-todo': join(here, 'vue-todo.ts'),
      'svelte-todo': join(here, 'svelte-todo.ts'),
      'angular-todo': join(here, 'angular-todo.ts'),
    },
    outdir: join(here, 'dist'),
    ...frameworkBuild(here),
    // The runtime with its template compiler: the fixtures write their templates as strings.
    alias: { vue: 'vue/dist/vue.esm-bundler.js' },
  });
}

if (process.argv[1] === import.meta.filename) await buildApps();
