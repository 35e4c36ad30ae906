import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import type { BrowserContext } from 'playwright-core';
import { launchWithExtension } from '../test-support/extension-browser';
import { freePort } from '../test-support/net';
import { repoRoot, serverBin } from '../test-support/paths';
import { jsonOf, textOf } from '../test-support/results';
import { type StdioMcp, startStdioMcp } from '../test-support/stdio-client';
import { waitFor } from '../test-support/wait';

/**
 * Issue 11: the extension's release zip (scripts/build.mjs), as a Chrome user installs it: unzipped
 * and loaded unpacked. Without a `key` it gets an id of its own, which tabmcp accepts only when told.
 */
const { version } = JSON.parse(readFileSync(join(repoRoot, 'packages', 'extension', 'package.json'), 'utf8'));
const zip = join(repoRoot, 'dist-release', `tabmcp-extension-${version}.zip`);
const TOKEN = 'release-zip-pairing-token-0123456789';

/** Chromium's id for an unpacked extension without a key: its folder's path, hashed, in letters a-p. */
function unpackedExtensionId(dir: string): string {
  const hex = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

describe('the extension release zip', () => {
  let scratch: string;
  const opened: Array<{ close(): Promise<void> }> = [];

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tabmcp-zip-'));
  });

  after(async () => {
    for (const thing of opened.reverse()) await thing.close().catch(() => {});
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** Unzips the release into a folder of its own, pointed at `port` as pairing in the options page would. */
  function unzipTo(name: string, port: number): string {
    const dir = join(scratch, name);
    mkdirSync(dir);
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ port, token: TOKEN }));
    return dir;
  }

  async function startTabmcp(port: number, extraArgs: string[]): Promise<StdioMcp> {
    const tabmcp = await startStdioMcp({
      args: [serverBin, '--port', String(port), ...extraArgs],
      env: { TABMCP_HOME: scratch, TABMCP_TOKEN: TOKEN },
      clientName: 'tabmcp-zip-test',
    });
    opened.push(tabmcp);
    return tabmcp;
  }

  async function loadInChromium(dir: string): Promise<{ context: BrowserContext; id: string }> {
    const context = await launchWithExtension(join(dir, '..', `${dir.split('/').pop()}-profile`), dir);
    opened.push(context);
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    return { context, id: new URL(worker.url()).host };
  }

  it('has no key and no source maps, and has 16, 48 and 128 pixel PNG icons', () => {
    const dir = unzipTo('inspect', 8765);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.key, undefined);
    assert.deepEqual(
      readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.map')),
      [],
    );
    for (const size of [16, 48, 128]) {
      const png = readFileSync(join(dir, manifest.icons[String(size)]));
      assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [size, size], `icon ${size}`);
    }
  });

  it('loads in Chromium and connects to a tabmcp given its id by --allow-extension-id', async () => {
    const port = await freePort();
    const dir = unzipTo('allowed', port);
    const expectedId = unpackedExtensionId(dir);
    assert.notEqual(expectedId, EXTENSION_ID, 'a keyless copy has an id of its own');
    const tabmcp = await startTabmcp(port, ['--allow-extension-id', expectedId]);
    const { id } = await loadInChromium(dir);
    assert.equal(id, expectedId);
    const connected = await waitFor(
      async () => {
        const result = await tabmcp.call('connect_browser');
        return result.isError ? undefined : result;
      },
      20_000,
      'the zip extension to connect',
    );
    assert.match(textOf(connected), /"connected":\s*true/);
    const tabs = jsonOf<{ tabs: unknown[] }>(await tabmcp.call('list_tabs'));
    assert.ok(Array.isArray(tabs.tabs));
  });

  it('is refused by a tabmcp not told its id', async () => {
    const port = await freePort();
    const dir = unzipTo('refused', port);
    const tabmcp = await startTabmcp(port, []);
    const { id } = await loadInChromium(dir);
    await waitFor(
      () => tabmcp.stderr().includes(`"origin":"chrome-extension://${id}"`) && tabmcp.stderr().includes('link.refused'),
      20_000,
      'the refusal of the unknown extension id',
    );
    const result = await tabmcp.call('connect_browser');
    assert.equal(result.isError, true, textOf(result));
  });
});
