import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;

/** One page per React component library of the gauntlet (issue 23), each `<name>.html` loading `dist/<name>.js`. */
const pages = ['radix-select', 'react-select', 'downshift', 'headlessui', 'mui', 'tanstack-table', 'react-datepicker'];

/**
 * Builds the React component-library fixtures into examples/widgets-react/dist: glue code only, around
 * libraries installed from npm, bundled with React's JSX runtime in production mode as an app ships them
 * (CSS-in-JS styles are injected by the libraries; react-datepicker's stylesheet is copied beside it).
 */
export async function buildReactWidgets(): Promise<void> {
  await build({
    entryPoints: {
      ...Object.fromEntries(pages.map((page) => [page, join(here, `${page}.tsx`)])),
      // react-datepicker's own stylesheet, as a site links it.
      'react-datepicker-theme': join(
        here,
        '..',
        '..',
        'node_modules',
        'react-datepicker',
        'dist',
        'react-datepicker.css',
      ),
    },
    outdir: join(here, 'dist'),
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (process.argv[1] === import.meta.filename) await buildReactWidgets();
