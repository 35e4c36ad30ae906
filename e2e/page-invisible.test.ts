import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXTENSION_ID } from '@tabmcp/protocol';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { launchWithExtension } from '../test-support/extension-browser';
import { repoRoot, waitFor } from '../test-support/harness';
import { type Agent, type Machine, newMachine, startAgent } from '../test-support/server-harness';

/**
 * Issue 40: tabmcp is invisible until an agent asks. In a person's own Chromium with the built
 * extension, a page with no agent connected, and a page of a site not allowed with an agent
 * connected, sees the browser's own functions (their text is native code, as in a Chromium without
 * the extension) and no global that Chromium without the extension lacks. Pages that published
 * tools before any agent was there have them listed once one connects.
 */
const NOT_ALLOWED_HOST = 'not-allowed.test';
const BROWSER_ARGS = [`--host-resolver-rules=MAP ${NOT_ALLOWED_HOST} 127.0.0.1`, '--enable-features=WebMCP'];

interface PageView {
  /** Each checked function's text, by the name the page reaches it by. */
  text: Record<string, string>;
  /** The window's own property names and symbols. */
  globals: string[];
}

/** Runs in the page's own world, as a page's script would look. */
const lookAtPage = (): PageView => {
  const checked: Record<string, unknown> = {
    setTimeout,
    setInterval,
    fetch,
    'XMLHttpRequest.prototype.send': XMLHttpRequest.prototype.send,
    alert,
    confirm,
    prompt,
    'history.pushState': history.pushState,
    'EventTarget.prototype.addEventListener': EventTarget.prototype.addEventListener,
    'Function.prototype.toString': Function.prototype.toString,
  };
  return {
    text: Object.fromEntries(
      Object.entries(checked).map(([name, value]) => [name, Function.prototype.toString.call(value)]),
    ),
    globals: [...Object.getOwnPropertyNames(window), ...Object.getOwnPropertySymbols(window).map(String)],
  };
};

/** The content scripts the extension has registered (none in its manifest), read in its worker. */
const registeredScripts = async (context: BrowserContext): Promise<number> => {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  return worker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length);
};

/** Whether the MAIN-world bridge is in the page: a running bridge claims this event (bridge/channel.ts). */
const hasBridge = (page: Page) =>
  page.evaluate(() => !document.dispatchEvent(new CustomEvent('tabmcp-bridge-present', { cancelable: true })));

describe('invisible until asked (issue 40)', () => {
  let site: ExampleServer;
  let machine: Machine;
  let agent: Agent | undefined;
  let context: BrowserContext;
  let profile: string;
  /** The plain page as a Chromium without the extension shows it to its own scripts, by host (127.0.0.1 is a secure context, the other not). */
  const bare = new Map<string, PageView>();

  const plainOn = (host: string) => `${site.url.replace('127.0.0.1', host)}/plain/index.html`;

  async function assertUntouched(page: Page, where: string): Promise<void> {
    const seen = await page.evaluate(lookAtPage);
    const without = bare.get(new URL(page.url()).hostname);
    assert.ok(without, `a baseline for ${page.url()}`);
    for (const [name, text] of Object.entries(seen.text)) {
      assert.match(text, /^function \w+\(\) \{ \[native code\] \}$/, `${where}: ${name} prints ${text}`);
      assert.equal(text, without.text[name], `${where}: ${name}`);
    }
    const extra = seen.globals.filter((name) => !without.globals.includes(name));
    assert.deepEqual(extra, [], `${where}: globals a Chromium without the extension lacks`);
  }

  before(async () => {
    site = await startExampleServer();
    machine = await newMachine();
    const plain = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [...chromiumArgs(), ...BROWSER_ARGS],
    });
    try {
      const page = await plain.newPage();
      for (const host of ['127.0.0.1', NOT_ALLOWED_HOST]) {
        await page.goto(plainOn(host));
        bare.set(host, await page.evaluate(lookAtPage));
      }
    } finally {
      await plain.close();
    }
    profile = mkdtempSync(join(tmpdir(), 'tabmcp-invisible-'));
    const extension = join(profile, 'extension');
    cpSync(join(repoRoot, 'packages', 'extension', 'dist'), extension, { recursive: true });
    context = await launchWithExtension(join(profile, 'user-data'), extension, BROWSER_ARGS);
  });

  after(async () => {
    await agent?.close();
    await context?.close().catch(() => {});
    await site?.close();
    machine?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('with no agent connected, a page of an allowed site and one of a site not allowed see only the browser', async () => {
    assert.equal(await registeredScripts(context), 0, 'no content script is registered');
    for (const host of ['127.0.0.1', NOT_ALLOWED_HOST]) {
      const page = await context.newPage();
      await page.goto(plainOn(host));
      await assertUntouched(page, `${host}, no agent`);
      await page.close();
    }
  });

  it('tools published before an agent connected are listed once it does; a site not allowed still sees only the browser', async () => {
    // Opened while no agent is connected: an MCP-B tab server with the WebMCP polyfill, a polyfill
    // page, Chromium's own WebMCP, a hand-written window.mcp, and a page of a site not allowed.
    const published = ['mcp-b-global.html', 'webmcp.html', 'webmcp-native.html', 'hand-written.html'];
    for (const path of published) await (await context.newPage()).goto(`${site.url}/interop/${path}`);
    const notAllowed = await context.newPage();
    await notAllowed.goto(plainOn(NOT_ALLOWED_HOST));

    const options = await context.newPage();
    await options.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    await options.evaluate((stored) => chrome.storage.local.set(stored), { port: machine.port, token: machine.token });
    await options.close();
    agent = await startAgent(machine, ['--view', 'all']);
    const connected = agent;
    await waitFor(async () => (await connected.call('connect_browser')).isError !== true, 20_000, 'the browser');
    const answeredAt = Date.now();
    const expected = ['_greet', '_add_note', '_rename_list', '_increment'];
    await waitFor(
      async () => {
        const names = await connected.toolNames();
        return expected.every((suffix) => names.some((name) => name.endsWith(suffix)));
      },
      10_000,
      `the tools the pages published before the agent connected (${expected.join(', ')})`,
    );
    console.error(
      `[page-invisible] published tools listed ${Date.now() - answeredAt} ms after connect_browser answered`,
    );

    // The not-allowed page's content script runs (its tab registered, held back as "pending"), its MAIN world got nothing.
    /** A tab whose content script registered it; the tools of a site not allowed are held back (the note says so). */
    const heldBack = async (urlEnd: string) =>
      (await connected.json<{ tabs: Array<{ url: string; note?: string }> }>('list_tabs')).tabs.some(
        (tab) => tab.url.endsWith(urlEnd) && /held back: the site is not allowed/.test(tab.note ?? ''),
      );
    await waitFor(
      () => heldBack(`${NOT_ALLOWED_HOST}:${new URL(site.url).port}/plain/index.html`),
      10_000,
      'the page of the site not allowed to register its tab',
    );
    await assertUntouched(notAllowed, `${NOT_ALLOWED_HOST}, agent connected, opened before`);
    assert.equal(await hasBridge(notAllowed), false, 'a site not allowed never gets the bridge');
    // A page loaded while the agent is connected gets the registered content script, and no more.
    const fresh = await context.newPage();
    await fresh.goto(`${plainOn(NOT_ALLOWED_HOST)}?fresh`);
    await waitFor(() => heldBack('?fresh'), 10_000, 'the new page of the site not allowed to register its tab');
    await assertUntouched(fresh, `${NOT_ALLOWED_HOST}, agent connected, loaded after`);
    assert.equal(await hasBridge(fresh), false, 'a site not allowed never gets the bridge');
    // An allowed page has it now (so the probe above can see one), its hooks disguised and no global left.
    const allowed = context.pages().find((page) => page.url().endsWith('/interop/hand-written.html'));
    assert.ok(allowed);
    assert.equal(await hasBridge(allowed), true, 'an allowed page has the bridge while an agent is connected');
    assert.equal(await registeredScripts(context), 1, 'the content script is registered while an agent is connected');
  });

  it('once the agent is gone, the pages get back to running nothing of tabmcp', async () => {
    await agent?.close();
    agent = undefined;
    const allowed = context.pages().find((page) => page.url().endsWith('/interop/hand-written.html'));
    assert.ok(allowed);
    // The background waits 10 s for an agent that comes back, then tells every tab to end what it runs.
    await waitFor(async () => !(await hasBridge(allowed)), 30_000, 'the bridge to leave the allowed page');
    assert.equal(await registeredScripts(context), 0, 'no content script is registered');
    const page = await context.newPage();
    await page.goto(plainOn('127.0.0.1'));
    await assertUntouched(page, '127.0.0.1, after the agent left');
  });
});
