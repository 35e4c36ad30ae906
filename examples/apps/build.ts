import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { compile, compileModule } from 'svelte/compiler';

const here = import.meta.dirname;

/**
 * .svelte files through the Svelte compiler, as its bundler plugins do; and .svelte.js modules (a
 * library's runes outside components, as bits-ui ships them) through its module compiler.
 */
export const svelteFiles: Plugin = {
  name: 'svelte',
  setup(builder) {
    builder.onLoad({ filter: /\.svelte$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const { js } = compile(source, { filename: relative(here, args.path), generate: 'client', css: 'injected' });
      return { contents: js.code, loader: 'js', resolveDir: dirname(args.path) };
    });
    builder.onLoad({ filter: /\.svelte\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const { js } = compileModule(source, { filename: relative(here, args.path), generate: 'client' });
      return { contents: js.code, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

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
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    alias: { vue: 'vue/dist/vue.esm-bundler.js' },
    conditions: ['svelte', 'browser'],
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      // What the Angular CLI defines for a browser build that compiles its templates at run time.
      ngServerMode: 'false',
      ngJitMode: 'true',
    },
    plugins: [svelteFiles],
    // Angular's JIT compiler reads the decorators as TypeScript's experimental ones emit them.
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (process.argv[1] === import.meta.filename) await buildApps();
