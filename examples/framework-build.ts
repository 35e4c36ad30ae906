import { readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { compile, compileModule } from 'svelte/compiler';

/**
 * .svelte files through the Svelte compiler, as its bundler plugins do; and .svelte.js modules (a
 * library's runes outside components, as bits-ui ships them) through its module compiler.
 */
function svelteFiles(root: string): Plugin {
  return {
    name: 'svelte',
    setup(builder) {
      builder.onLoad({ filter: /\.svelte$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const { js } = compile(source, { filename: relative(root, args.path), generate: 'client', css: 'injected' });
        return { contents: js.code, loader: 'js', resolveDir: dirname(args.path) };
      });
      builder.onLoad({ filter: /\.svelte\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const { js } = compileModule(source, { filename: relative(root, args.path), generate: 'client' });
        return { contents: js.code, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * What the example pages built from npm frameworks share: one minified browser bundle per page, as
 * each framework's own tool chain ships an app (React's JSX runtime in production mode, Vue without
 * its devtools, Svelte compiled, Angular compiled in the browser: JIT, zoneless). `root` is the
 * folder whose paths Svelte's messages name.
 */
export function frameworkBuild(root: string): BuildOptions {
  return {
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    conditions: ['svelte', 'browser'],
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      // Vuetify's core (@vuetify/v0) reads this Vite variable, which Vite defines (unset here) in the apps it builds.
      'process.env.VITE_LOGGER_ENABLED': 'undefined',
      // What the Angular CLI defines for a browser build that compiles its templates at run time.
      ngServerMode: 'false',
      ngJitMode: 'true',
    },
    plugins: [svelteFiles(root)],
    // Angular's JIT compiler reads the decorators as TypeScript's experimental ones emit them.
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
    logLevel: 'warning',
    legalComments: 'none',
  };
}
