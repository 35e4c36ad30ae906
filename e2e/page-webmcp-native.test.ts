import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { launchWithExtension } from '../test-support/extension-browser';
import { repoRoot } from '../test-support/harness';

/**
 * Chrome's own WebMCP (`--enable-features=WebMCP`, no polyfill in the page) through the built
 * extension's MAIN-world bridge: the page's registerTool tool and its declarative form, each listed
 * once, both callable. The test puts the built bridge.js into the page as the background does while
 * an agent is connected (no agent is here, so the extension itself puts nothing in the page:
 * e2e/page-invisible.test.ts), and speaks to the bridge's channel from the page, as the content
 * script does; the rest of the path is the same as for every source (e2e/page-interop.test.ts).
 */
describe('native WebMCP in Chromium through the extension bridge', () => {
  let site: ExampleServer;
  let context: BrowserContext;
  let page: Page;
  let profile: string;

  before(async () => {
    site = await startExampleServer();
    profile = mkdtempSync(join(tmpdir(), 'tabmcp-webmcp-'));
    const extension = join(repoRoot, 'packages', 'extension', 'dist');
    context = await launchWithExtension(profile, extension, ['--enable-features=WebMCP']);
    page = await context.newPage();
    await page.goto(`${site.url}/interop/webmcp-native.html`);
    await page.addScriptTag({ path: join(extension, 'bridge.js') });
    await page.addScriptTag({ url: `${site.url}/sdk/tabmcp-page.js` });
  });

  after(async () => {
    await context?.close();
    await site?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('lists the native tools once, names the source, and calls both kinds', async () => {
    const result = (await page.evaluate(`(async () => {
      const native = (await document.modelContext.getTools()).map((tool) => tool.name);
      const client = new TabMcp.TabClient({ channel: 'tabmcp-bridge', connectTimeoutMs: 8000 });
      const init = await client.initialize();
      const listed = await client.request('tools/list');
      const note = await client.request('tools/call', { name: 'add_note', arguments: { text: 'tea' } });
      const bad = await client.request('tools/call', { name: 'add_note', arguments: {} });
      const renamed = await client.request('tools/call', { name: 'rename_list', arguments: { title: 'Groceries' } });
      client.close();
      return { native, source: init._meta['tabmcp/source'], names: listed.tools.map((t) => t.name), note, bad, renamed,
        notes: document.getElementById('notes').textContent, heading: document.querySelector('h1').textContent };
    })()`)) as {
      native: string[];
      source: string;
      names: string[];
      note: { content: Array<{ text: string }> };
      bad: { isError: boolean; content: Array<{ text: string }> };
      renamed: { isError?: boolean; content: Array<{ text: string }> };
      notes: string;
      heading: string;
    };
    assert.deepEqual(result.native.sort(), ['add_note', 'rename_list'], 'Chrome registered both itself');
    assert.equal(result.source, 'webmcp');
    assert.deepEqual(result.names.sort(), ['add_note', 'rename_list'], 'the form is not listed twice');
    assert.deepEqual(JSON.parse(result.note.content[0]?.text ?? ''), { count: 1 });
    assert.equal(result.bad.isError, true);
    assert.match(result.bad.content[0]?.text ?? '', /arguments\.text: required/);
    assert.notEqual(result.renamed.isError, true, result.renamed.content[0]?.text);
    assert.match(result.renamed.content[0]?.text ?? '', /Renamed the list to Groceries/);
    assert.equal(result.notes, 'tea');
    assert.equal(result.heading, 'Groceries');
  });
});
