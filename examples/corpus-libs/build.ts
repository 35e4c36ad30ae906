import { join } from 'node:path';
import { build } from 'esbuild';
import { frameworkBuild } from '../framework-build';

const here = import.meta.dirname;

/** One page per npm library of the corpus (issue 37), each `<name>.html` loading `dist/<name>.js`. */
const pages: Record<string, string> = {
  'naive-ui': 'naive-ui.ts',
  'angular-material': 'angular-material.ts',
  'bits-ui': 'bits-ui.ts',
  'react-virtuoso': 'react-virtuoso.tsx',
  ace: 'ace.ts',
  'hello-pangea-dnd': 'hello-pangea-dnd.tsx',
  // Stop 39: an editor framework and a tree data table.
  lexical: 'lexical.ts',
  tabulator: 'tabulator.ts',
  // Vuetify (its styles bundled beside it as dist/vuetify.css) and react-window.
  vuetify: 'vuetify.ts',
  'react-window': 'react-window.tsx',
  'react-window-messages': 'react-window-messages.tsx',
};

/**
 * Builds the corpus's npm-library pages into examples/corpus-libs/dist: glue code only, around
 * libraries installed from npm at exact versions, bundled as each library's docs ship an app (Vue
 * with its runtime, Svelte compiled, Angular compiled in the browser, React in production mode;
 * Angular Material's prebuilt theme beside it).
 */
export async function buildCorpusLibraries(): Promise<void> {
  await build({
    entryPoints: {
      ...Object.fromEntries(Object.entries(pages).map(([page, file]) => [page, join(here, file)])),
      'angular-material-theme': join(
        here,
        '..',
        '..',
        'node_modules',
        '@angular',
        'material',
        'prebuilt-themes',
        'azure-blue.css',
      ),
      'tabulator-theme': join(here, '..', '..', 'node_modules', 'tabulator-tables', 'dist', 'css', 'tabulator.min.css'),
    },
    outdir: join(here, 'dist'),
    ...frameworkBuild(here),
  });
}

if (process.argv[1] === import.meta.filename) await buildCorpusLibraries();
