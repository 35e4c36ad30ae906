import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const modules = join(here, '..', '..', 'node_modules');

/**
 * Builds the widget gauntlet's fixtures of issue 23 into examples/widgets/dist: flatpickr, Quill,
 * Tiptap, jQuery UI, AG Grid and Ionic, installed from npm, with a few lines of glue each, bundled as
 * a site ships them; each library's own stylesheet is bundled beside its page as a site links it.
 */
export async function buildWidgetFixtures(): Promise<void> {
  await build({
    entryPoints: {
      flatpickr: join(here, 'flatpickr.ts'),
      quill: join(here, 'quill.ts'),
      tiptap: join(here, 'tiptap.ts'),
      'jquery-ui': join(here, 'jquery-ui.ts'),
      'ag-grid': join(here, 'ag-grid.ts'),
      ionic: join(here, 'ionic.ts'),
      'css/flatpickr': join(modules, 'flatpickr', 'dist', 'flatpickr.min.css'),
      'css/quill': join(modules, 'quill', 'dist', 'quill.snow.css'),
      'css/jquery-ui': join(modules, 'jquery-ui', 'dist', 'themes', 'base', 'jquery-ui.min.css'),
      'css/ionic': join(modules, '@ionic', 'core', 'css', 'ionic.bundle.css'),
    },
    outdir: join(here, 'dist'),
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
    legalComments: 'none',
    // jQuery UI's theme names images it does not ship in the npm package's dist; a person sees no difference.
    loader: { '.png': 'empty', '.gif': 'empty' },
  });
}

if (process.argv[1] === import.meta.filename) await buildWidgetFixtures();
