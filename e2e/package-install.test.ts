import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { type StaticSite, startStaticSite } from '../examples/static-site';
import { browserLaunchedBy, pageWithUrl } from '../test-support/cdp';
import { freePort } from '../test-support/net';
import { repoRoot } from '../test-support/paths';
import { textOf } from '../test-support/results';
import { waitFor } from '../test-support/wait';

/**
 * Issue 11: tabmcp as a new user gets it. The package is packed and installed into an empty folder
 * with no checkout around it, and everything below runs through the installed bins only.
 */

// The parent `npm test` passes npm_* settings (workspace, prefix); a new user's npm has none of them.
const userEnv = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => {
    const [name, value] = entry;
    return value !== undefined && !name.toLowerCase().startsWith('npm_');
  }),
);

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env: userEnv, encoding: 'utf8', timeout: 60_000 });
}

describe('the packed tabmcp, installed into an empty folder', () => {
  let scratch: string;
  let tarball: string;
  let packedFiles: string[] = [];
  let userDir: string;
  let bins: string;
  let site: StaticSite;
  let client: Client;
  let stderr = '';
  let browser: Browser | undefined;

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'tabmcp-pack-'));
    // `npm test` has just built dist/; prepack would build again and swap dist/ under other tests.
    const packed = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', scratch, '-w', 'packages/server'], repoRoot),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(scratch, packed[0]?.filename ?? 'missing.tgz');
    packedFiles = (packed[0]?.files ?? []).map((file) => file.path);
    userDir = join(scratch, 'user');
    mkdirSync(userDir);
    // Offline: the package must need nothing from the registry (its dependencies are bundled).
    npm(['install', '--offline', '--no-audit', '--no-fund', '--prefix', userDir, tarball], userDir);
    bins = join(userDir, 'node_modules', '.bin');
    // The shop demo, with the page script taken from the installed package.
    site = await startStaticSite([
      { prefix: '/sdk/', dir: join(userDir, 'node_modules', 'tabmcp', 'dist', 'page') },
      { prefix: '/', dir: join(repoRoot, 'examples') },
    ]);
  });

  after(async () => {
    await browser?.close();
    await client?.close();
    await site?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('tabmcp --version prints the version of the package', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'packages', 'server', 'package.json'), 'utf8'));
    const printed = execFileSync(join(bins, 'tabmcp'), ['--version'], { cwd: userDir, encoding: 'utf8' });
    assert.equal(printed.trim(), version);
  });

  it('carries a README, the LICENSE and the extension release zip (issue 28)', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'packages', 'server', 'package.json'), 'utf8'));
    const zip = `dist/tabmcp-extension-${version}.zip`;
    for (const file of ['README.md', 'LICENSE', zip]) assert.ok(packedFiles.includes(file), `${file} not packed`);
    const installed = readFileSync(join(userDir, 'node_modules', 'tabmcp', zip));
    assert.deepEqual(installed, readFileSync(join(repoRoot, 'dist-release', `tabmcp-extension-${version}.zip`)));
    // The package's README links the docs it cites by URL: the package ships no docs/ folder.
    const readme = readFileSync(join(userDir, 'node_modules', 'tabmcp', 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /\]\((?!https:\/\/)[^)]+\)/, 'a relative link in the package README');
  });

  it('tabmcp-proxy is installed beside it', () => {
    const help = execFileSync(join(bins, 'tabmcp-proxy'), ['--help'], { cwd: userDir, encoding: 'utf8' });
    assert.match(help, /tabmcp-proxy serve/);
  });

  it('installed globally or run by npx -y, tabmcp pair installs the extension under its home, per version', () => {
    // `tabmcp pair` prints where the extension to load is: a copy in $TABMCP_HOME/extension/<version>,
    // not npx's cache, which the next version rewrites in place (issue 28).
    const pairHome = join(scratch, 'pair-home');
    const home = { ...userEnv, TABMCP_HOME: pairHome };
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'packages', 'server', 'package.json'), 'utf8'));
    const installedDir = join(pairHome, 'extension', version);
    const extensionShown = (output: string) => /pick (\S+)/.exec(output)?.[1];
    const globalPrefix = join(scratch, 'global');
    npm(['install', '--global', '--offline', '--no-audit', '--no-fund', '--prefix', globalPrefix, tarball], scratch);
    const globalPair = execFileSync(join(globalPrefix, 'bin', 'tabmcp'), ['pair'], { env: home, encoding: 'utf8' });
    assert.equal(extensionShown(globalPair), installedDir);
    const viaNpx = execFileSync(
      'npx',
      ['--offline', '--yes', '--cache', join(scratch, 'npm-cache'), '--package', tarball, 'tabmcp', 'pair'],
      { cwd: scratch, env: home, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(extensionShown(viaNpx), installedDir);
    assert.ok(existsSync(join(installedDir, 'manifest.json')), `no extension at ${installedDir}`);
    // `tabmcp extension` says where it is, and leaves the folder Chrome loads from alone.
    const said = execFileSync(join(globalPrefix, 'bin', 'tabmcp'), ['extension'], { env: home, encoding: 'utf8' });
    assert.match(said, new RegExp(`is installed in\\n\\s+${installedDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
  });

  it('the installed tabmcp launches Chromium with its own extension, and a page tool works', async () => {
    const home = join(scratch, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'pairing-token'), 'pack-test-pairing-token-0123456789\n', { mode: 0o600 });
    const transport = new StdioClientTransport({
      command: join(bins, 'tabmcp'),
      args: ['--launch', '--headless', '--port', String(await freePort())],
      env: { ...userEnv, TABMCP_HOME: home, TABMCP_BROWSER_ARGS: '--remote-debugging-port=0' },
      cwd: userDir,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: 'tabmcp-package-test', version: '1.0.0' });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    const connected = await call('connect_browser');
    assert.notEqual(connected.isError, true, `${textOf(connected)}\n${stderr}`);
    const opened = await call('open_tab', { url: `${site.url}/shop/` });
    assert.notEqual(opened.isError, true, textOf(opened));
    await waitFor(
      async () => (await client.listTools()).tools.some((tool) => tool.name === 'add_to_cart'),
      10_000,
      'the shop page tools',
    );
    const added = await call('add_to_cart', { productId: 'p3', quantity: 2 });
    assert.notEqual(added.isError, true, textOf(added));
    // Its effect, read back through another page tool and seen on the page itself over CDP.
    const cart = await call('get_cart');
    assert.equal((cart.structuredContent as { total: number }).total, 68, textOf(cart));
    browser = await browserLaunchedBy(() => stderr);
    const page = await pageWithUrl(browser, '/shop/');
    assert.equal(await page.textContent('#cart-total'), '$68.00');
    // The extension came from inside the installed package: nothing else is around to find.
    assert.doesNotMatch(stderr, /extension\.missing/);
  });
});
