// Builds the extension, the page SDK script and the tabmcp server bundle with esbuild, then the
// npm package `tabmcp` (packages/server/dist: server, proxy, extension, page script) and the
// extension's release zip (dist-release/).
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { FOR_NODE } from './esbuild-node.mjs';
import { iconPng, zipArchive } from './release-files.mjs';

const execFileAsync = promisify(execFile);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = (name) => join(root, 'packages', name);
const keyFile = readFileSync(join(pkg('protocol'), 'src/extension-id.ts'), 'utf8');
const publicKey = /EXTENSION_PUBLIC_KEY =\s*'([^']+)'/.exec(keyFile)?.[1];
if (!publicKey) throw new Error('EXTENSION_PUBLIC_KEY not found');
const version = JSON.parse(readFileSync(join(pkg('extension'), 'package.json'), 'utf8')).version;

// `tabmcp-source`: our workspace packages resolve to their TypeScript source (packages/page/package.json).
const common = {
  bundle: true,
  sourcemap: 'linked',
  target: 'es2022',
  logLevel: 'warning',
  legalComments: 'none',
  conditions: ['tabmcp-source'],
};

/**
 * Builds a package's dist/ in a staging folder beside it and swaps it in at the end, so a test or a
 * running tabmcp never sees a half-built dist/ (a plain rebuild deletes it first).
 */
async function buildInto(out, fill) {
  const staging = `${out}-staging-${process.pid}`;
  const retired = `${out}-old-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    await fill(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  if (existsSync(out)) renameSync(out, retired);
  renameSync(staging, out);
  rmSync(retired, { recursive: true, force: true });
}

async function buildExtension() {
  await buildInto(join(pkg('extension'), 'dist'), async (out) => {
    const bundle = (name, entry, options = {}) =>
      build({
        ...common,
        entryPoints: { [name]: join(pkg('extension'), 'src', entry) },
        outdir: out,
        format: 'iife',
        platform: 'browser',
        // Less for the browser to parse at start: content.js on every page load, background.js at each
        // worker start (issue 11, cold start). Errors and logs never use function or class names.
        minify: true,
        ...options,
      });
    await Promise.all([
      bundle('background', 'background/index.ts', { format: 'esm', plugins: [zodEnglishOnly] }),
      bundle('content', 'content/content-script.ts', { plugins: [zodEnglishOnly] }),
      bundle('bridge', 'bridge/main-world.ts'),
      bundle('popup', 'popup/popup.ts', { plugins: [zodEnglishOnly] }),
      bundle('options', 'options/options.ts', { plugins: [zodEnglishOnly] }),
      bundle('confirm', 'confirm/confirm.ts', { plugins: [zodEnglishOnly] }),
    ]);
    cpSync(join(pkg('extension'), 'src/options/options.html'), join(out, 'options.html'));
    const staticDir = join(pkg('extension'), 'static');
    if (existsSync(staticDir)) cpSync(staticDir, out, { recursive: true });
    const manifest = {
      manifest_version: 3,
      name: 'tabmcp',
      version,
      description: 'Hands the tools of your open tabs to AI agents (MCP clients) through the local tabmcp server.',
      key: publicKey,
      icons: ICONS,
      minimum_chrome_version: '111',
      background: { service_worker: 'background.js', type: 'module' },
      permissions: [
        'tabs',
        'scripting',
        'storage',
        'unlimitedStorage',
        'alarms',
        'debugger',
        'webNavigation',
        'webRequest',
      ],
      host_permissions: ['<all_urls>'],
      // No content_scripts: nothing runs in a page while no agent is connected. The background
      // registers content.js when one connects and injects bridge.js into allowed sites' documents
      // only (packages/extension/src/background/page-injection.ts, docs/security.md).
      action: { default_title: 'tabmcp', default_popup: 'popup.html', default_icon: ICONS },
      options_ui: { page: 'options.html', open_in_tab: true },
    };
    writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(out, 'config.json'), `${JSON.stringify({ port: 8765 })}\n`);
    mkdirSync(join(out, 'icons'));
    for (const [size, path] of Object.entries(ICONS)) writeFileSync(join(out, path), iconPng(Number(size)));
  });
}

const ICONS = { 16: 'icons/16.png', 48: 'icons/48.png', 128: 'icons/128.png' };

function filesUnder(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The Chrome Web Store / "Load unpacked" zip: the dev build without its `key` (the store assigns the
 * id; a key in an upload is refused) and without source maps. docs/user-guide.md says how to install it.
 */
function releaseZip() {
  const dist = join(pkg('extension'), 'dist');
  const files = filesUnder(dist)
    .filter((path) => !path.endsWith('.map'))
    .sort()
    .map((path) => {
      const name = relative(dist, path).split('\\').join('/');
      let data = readFileSync(path);
      if (name === 'manifest.json') {
        const { key: _key, ...manifest } = JSON.parse(data.toString('utf8'));
        data = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      } else if (name.endsWith('.js')) {
        data = Buffer.from(data.toString('utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
      }
      return { name, data };
    });
  return zipArchive(files);
}

const RELEASE_ZIP = `tabmcp-extension-${version}.zip`;

function buildReleaseZip() {
  const out = join(root, 'dist-release');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, RELEASE_ZIP), releaseZip());
}

async function buildPageScript() {
  await buildInto(join(pkg('page'), 'dist'), async (out) => {
    await Promise.all([
      build({
        ...common,
        entryPoints: { 'tabmcp-page': join(pkg('page'), 'src/script.ts') },
        outdir: out,
        format: 'iife',
        platform: 'browser',
        minify: true,
      }),
      // ESM for bundlers (Vite, webpack), with the zod-free protocol part inlined, and declarations.
      build({
        ...common,
        entryPoints: { index: join(pkg('page'), 'src/index.ts') },
        outdir: join(out, 'esm'),
        format: 'esm',
        platform: 'browser',
      }),
      execFileAsync(process.execPath, [
        join(root, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(pkg('page'), 'tsconfig.build.json'),
        '--outDir',
        join(out, 'esm'),
      ]),
    ]);
    addJsExtensions(join(out, 'esm'));
  });
}

/**
 * tsc keeps the source's extensionless relative imports in the .d.ts files; under moduleResolution
 * nodenext they resolve to nothing and the SDK's types silently become `any` (issue 11).
 */
function addJsExtensions(dir) {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.d.ts'))) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/(from\s+'\.\.?\/[^']+?)(?<!\.js)'/g, "$1.js'"));
  }
}

// The MCP SDK's Server builds Ajv unless given a validator; serve-mcp.ts gives it ours, so Ajv's
// ~250 KB and its resident memory stay out (packages/server/src/mcp/json-schema-validator.ts).
// SDK 1.x (the --http transport) imports Ajv from validation/ajv-provider.js; SDK 2.x (stdio, both
// eras) from its Node shims, replaced whole (packages/server/src/mcp/sdk-node-shims.ts).
// A build-time substitution in a dependency (docs/decisions.md, 127): pinned to
// @modelcontextprotocol/sdk 1.32.2 and @modelcontextprotocol/server 2.4.0 exactly; upstream,
// modelcontextprotocol/typescript-sdk#2458 builds the default Ajv engine lazily, but the module is
// still imported at load; delete when the SDK loads no Ajv unless its default validator is used
// (e2e/server-bundle.test.ts checks that no startup chunk holds Ajv).
const sdkWithoutAjv = {
  name: 'sdk-without-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      args.importer.includes('@modelcontextprotocol')
        ? { path: join(pkg('server'), 'src/mcp/json-schema-validator.ts') }
        : undefined,
    );
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, (args) =>
      args.importer.includes('@modelcontextprotocol')
        ? { path: join(pkg('server'), 'src/mcp/sdk-node-shims.ts') }
        : undefined,
    );
  },
};

/** zod's locales, English only (scripts/zod-locales-en.mjs). */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /node_modules\/zod\//.test(args.importer) ? { path: join(root, 'scripts/zod-locales-en.mjs') } : undefined,
    );
  },
};

/**
 * packages/server/dist is the npm package `tabmcp`'s payload: the server, the proxy CLI, the built
 * extension and the page script, each found from the package's own location (options.ts).
 */
async function buildServer(extensionAndPage) {
  await buildInto(join(pkg('server'), 'dist'), async (out) => {
    const proxy = build({
      ...common,
      entryPoints: { 'tabmcp-proxy': join(pkg('proxy'), 'src/cli.ts') },
      outdir: out,
      ...FOR_NODE,
    });
    await build({
      ...common,
      entryPoints: { tabmcp: join(pkg('server'), 'src/entry.ts') },
      outdir: out,
      ...FOR_NODE,
      // What a default stdio run does not need (--http, --proxy) loads on demand from its own chunk.
      // Chunks sit beside tabmcp.js: options.ts finds the extension relative to the running file.
      splitting: true,
      chunkNames: '[name]-[hash]',
      // Less source for V8 to hold: about 5 MiB less resident (docs/requirements.md#bars memory bar). Stack traces map
      // back through the linked source maps with `node --enable-source-maps`.
      minify: true,
      plugins: [sdkWithoutAjv, zodEnglishOnly],
    });
    await Promise.all([proxy, extensionAndPage]);
    cpSync(join(pkg('extension'), 'dist'), join(out, 'extension'), { recursive: true });
    mkdirSync(join(out, 'page'));
    cpSync(join(pkg('page'), 'dist', 'tabmcp-page.js'), join(out, 'page', 'tabmcp-page.js'));
    // The npm package carries the release zip too: a user of their own Chrome (or the Web Store) needs it.
    writeFileSync(join(out, RELEASE_ZIP), releaseZip());
  });
}

const started = Date.now();
const extensionAndPage = Promise.all([buildExtension(), buildPageScript()]);
await Promise.all([extensionAndPage, buildServer(extensionAndPage)]);
buildReleaseZip();
console.error(`build: done in ${Date.now() - started} ms`);
