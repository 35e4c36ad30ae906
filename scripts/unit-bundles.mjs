// The unit test files, each bundled with esbuild into one ES module (with the sources and test-support it imports),
// for scripts/test.mjs to run with plain `node`. Through tsx, each of ~95 test processes paid ~0.3 s of CPU to start
// tsx's loader thread and ~0.3 s more to resolve and load each of its modules through it; a bundle loads in ~0.2 s.
// What runs is the same TypeScript, transformed by the same esbuild as tsx would, module by module in the same
// order. So that nothing else changes:
// - `import.meta.url`, `.filename` and `.dirname` are each module's own source file, not the bundle;
// - a package from node_modules is not bundled: it is imported by the absolute path it resolves to from the
//   importing source file (packages/server has its own node_modules), so Node loads it as it did;
// - our workspace packages resolve to their TypeScript source (`tabmcp-source`), as `--conditions` did;
// - linked source maps, for `node --enable-source-maps`: stacks and test locations name the .ts lines.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Not under node_modules: from Node 22 on, the test runner skips files under a node_modules directory.
const BUNDLES = join(root, '.tmp', 'unit-bundles');
const builtins = new Set(builtinModules);
/** What `import.meta.url`, `.filename` and `.dirname` become: names each module declares for itself. */
const META = { url: '__unitImportMetaUrl', filename: '__unitImportMetaFilename', dirname: '__unitImportMetaDirname' };

const sourcesInPlace = {
  name: 'sources-in-place',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { path: args.path, external: true };
      if (args.path.startsWith('@tabmcp/')) return undefined;
      const found = await esbuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: pathToFileURL(found.path).href, external: true };
    });
    // Each module that reads import.meta gets its own values, declared on its first line (no line moves).
    esbuild.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const file = args.path;
      let contents = readFileSync(file, 'utf8');
      if (contents.includes('import.meta')) {
        const values = { url: pathToFileURL(file).href, filename: file, dirname: dirname(file) };
        const declared = Object.entries(values).map(([key, value]) => `const ${META[key]} = ${JSON.stringify(value)};`);
        const start = contents.startsWith('#!') ? contents.indexOf('\n') + 1 : 0;
        contents = `${contents.slice(0, start)}${declared.join(' ')} ${contents.slice(start)}`;
      }
      return { contents, loader: /[jt]sx?$/.exec(file)?.[0], resolveDir: dirname(file) };
    });
  },
};

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Bundles the test files (paths relative to the repository) into a directory of this run's own (two runs side by
 * side each keep theirs), removing those of runs that ended without removing theirs; returns the bundle of each
 * file, in the same order, and a function that removes the directory.
 */
export async function bundleUnitTests(files) {
  let leftovers = [];
  try {
    leftovers = readdirSync(BUNDLES).filter((name) => !/^\d+$/.test(name) || !alive(Number(name)));
  } catch {
    // none yet
  }
  for (const name of leftovers) rmSync(join(BUNDLES, name), { recursive: true, force: true });
  const outdir = join(BUNDLES, String(process.pid));
  // Imported here: the times reporter (scripts/test-times.mjs) imports this file for sourceOfBundle alone.
  const { build } = await import('esbuild');
  await build({
    entryPoints: files.map((file) => join(root, file)),
    outbase: root,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['tabmcp-source'],
    define: Object.fromEntries(Object.entries(META).map(([key, name]) => [`import.meta.${key}`, name])),
    sourcemap: 'linked',
    plugins: [sourcesInPlace],
    logLevel: 'warning',
  });
  return {
    bundles: files.map((file) => join(outdir, file.replace(/\.ts$/, '.mjs'))),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/** The test file a path names (relative to the repository, with `/`): the source of a bundle, else the path itself. */
export function sourceOfBundle(file) {
  const name = relative(root, file).split(sep).join('/');
  return /^\.tmp\/unit-bundles\/\d+\/(.+)\.mjs$/.exec(name)?.[1]?.concat('.ts') ?? name;
}
