// Builds the extension, the page SDK script and the tabmcp server bundle with esbuild.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const execFileAsync = promisify(execFile);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = (name) => join(root, 'packages', name);
const keyFile = readFileSync(join(pkg('protocol'), 'src/extension-id.ts'), 'utf8');
const publicKey = /EXTENSION_PUBLIC_KEY =\s*'([^']+)'/.exec(keyFile)?.[1];
if (!publicKey) throw new Error('EXTENSION_PUBLIC_KEY not found');
const version = JSON.parse(readFileSync(join(pkg('extension'), 'package.json'), 'utf8')).version;

const common = { bundle: true, sourcemap: 'linked', target: 'es2022', logLevel: 'warning', legalComments: 'none' };

async function buildExtension() {
  const out = join(pkg('extension'), 'dist');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await Promise.all([
    build({
      ...common,
      entryPoints: { background: join(pkg('extension'), 'src/background/index.ts') },
      outdir: out,
      format: 'esm',
      platform: 'browser',
    }),
    build({
      ...common,
      entryPoints: { content: join(pkg('extension'), 'src/content/content-script.ts') },
      outdir: out,
      format: 'iife',
      platform: 'browser',
    }),
    build({
      ...common,
      entryPoints: { bridge: join(pkg('extension'), 'src/bridge/main-world.ts') },
      outdir: out,
      format: 'iife',
      platform: 'browser',
      minify: true,
    }),
    build({
      ...common,
      entryPoints: { popup: join(pkg('extension'), 'src/popup/popup.ts') },
      outdir: out,
      format: 'iife',
      platform: 'browser',
    }),
    build({
      ...common,
      entryPoints: { options: join(pkg('extension'), 'src/options/options.ts') },
      outdir: out,
      format: 'iife',
      platform: 'browser',
    }),
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
    minimum_chrome_version: '111',
    background: { service_worker: 'background.js', type: 'module' },
    permissions: ['tabs', 'scripting', 'storage', 'unlimitedStorage', 'alarms', 'debugger'],
    host_permissions: ['<all_urls>'],
    content_scripts: [
      { matches: ['<all_urls>'], js: ['bridge.js'], run_at: 'document_start', world: 'MAIN' },
      { matches: ['<all_urls>'], js: ['content.js'], run_at: 'document_idle' },
    ],
    action: { default_title: 'tabmcp', default_popup: 'popup.html' },
    options_ui: { page: 'options.html', open_in_tab: true },
  };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(out, 'config.json'), `${JSON.stringify({ port: 8765 })}\n`);
}

async function buildPageScript() {
  const out = join(pkg('page'), 'dist');
  rmSync(out, { recursive: true, force: true });
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
    ]),
  ]);
}

async function buildServer() {
  const out = join(pkg('server'), 'dist');
  rmSync(out, { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: { tabmcp: join(pkg('server'), 'src/cli.ts') },
    outdir: out,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['bufferutil', 'utf-8-validate'],
    banner: {
      js: "import { createRequire as __tabmcpRequire } from 'node:module'; const require = __tabmcpRequire(import.meta.url);",
    },
  });
}

// The remote proxy's CLI (`tabmcp-proxy`, docs/proxy.md) as one Node file.
async function buildProxy() {
  const out = join(pkg('proxy'), 'dist');
  rmSync(out, { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: { 'tabmcp-proxy': join(pkg('proxy'), 'src/cli.ts') },
    outdir: out,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['bufferutil', 'utf-8-validate'],
    banner: {
      js: "import { createRequire as __tabmcpRequire } from 'node:module'; const require = __tabmcpRequire(import.meta.url);",
    },
  });
}

const started = Date.now();
await Promise.all([buildExtension(), buildPageScript(), buildServer(), buildProxy()]);
console.error(`build: done in ${Date.now() - started} ms`);
