import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type ExampleServer, startExampleServer } from '../examples/serve';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { repoRoot } from '../test-support/harness';

/**
 * The built MAIN-world bridge (bridge.js) in a page, as the background injects it into an allowed
 * site's document while an agent is connected, driven by the DOM events the content script sends
 * (bridge/activity-events.ts). Its hooks are on only while a watch is open or has follow-ups, print
 * native code meanwhile, and leave nothing behind; its own discovery poll is never an action's
 * follow-up (issue 38, "the bridge's own discovery poll can hold an action's answer").
 */
interface WatchOutcome {
  /** The pending count the bridge reported when the watch closed. */
  pendingAtClose: number;
  /** What the page saw while the watch was open. */
  during: { text: string; toStringText: string; hasPrototype: boolean; name: string; length: number; same: boolean };
  /** Whether every hooked function was the browser's own again once the watch was over. */
  restored: boolean;
  /** Globals that appeared meanwhile. */
  newGlobals: string[];
}

/**
 * Opens a watch, lets the page run for `ms` (long enough for the bridge's 100 ms poll to come round),
 * starts one short timer of its own, closes the watch and reports what the page saw. Page code, as
 * text: the test bundle's helpers do not exist in the page.
 */
const watchOnce = (ms: number) => `(async () => {
  const original = {
    setTimeout: window.setTimeout,
    clearTimeout: window.clearTimeout,
    fetch: window.fetch,
    send: XMLHttpRequest.prototype.send,
    toString: Function.prototype.toString,
  };
  const globalsBefore = Object.getOwnPropertyNames(window);
  const reports = [];
  document.addEventListener('tabmcp-activity-report', (event) => reports.push(JSON.parse(String(event.detail))));
  // Lets the page's tasks run for \`delay\` ms with no timer (a timer of the test's would be a follow-up too).
  const wait = async (delay) => {
    const until = performance.now() + delay;
    while (performance.now() < until) {
      await new Promise((done) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = done;
        channel.port2.postMessage(null);
      });
    }
  };
  document.dispatchEvent(new CustomEvent('tabmcp-activity-open', { detail: 'w1' }));
  const during = {
    text: Function.prototype.toString.call(window.setTimeout),
    toStringText: Function.prototype.toString.call(Function.prototype.toString),
    hasPrototype: 'prototype' in window.setTimeout,
    name: window.setTimeout.name,
    length: window.setTimeout.length,
    same: window.setTimeout === original.setTimeout,
  };
  // The action's own follow-up: counted, and done (in the task after its callback's) before the watch ends.
  await new Promise((done) => window.setTimeout(done, 0));
  await wait(${ms});
  document.dispatchEvent(new CustomEvent('tabmcp-activity-close', { detail: 'w1' }));
  const pendingAtClose = reports.filter((report) => report.id === 'w1').at(-1)?.pending ?? -1;
  document.dispatchEvent(new CustomEvent('tabmcp-activity-drop', { detail: 'w1' }));
  return {
    pendingAtClose,
    during,
    restored:
      window.setTimeout === original.setTimeout &&
      window.clearTimeout === original.clearTimeout &&
      window.fetch === original.fetch &&
      XMLHttpRequest.prototype.send === original.send &&
      Function.prototype.toString === original.toString,
    newGlobals: Object.getOwnPropertyNames(window).filter((name) => !globalsBefore.includes(name)),
  };
})()`;

describe('the MAIN-world bridge, hooks only during a call', () => {
  let site: ExampleServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    site = await startExampleServer();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs() });
    page = await browser.newPage();
    // A page that publishes nothing: the bridge keeps looking for its tools, every 100 ms at first.
    await page.goto(`${site.url}/plain/index.html`);
    await page.addScriptTag({ path: join(repoRoot, 'packages', 'extension', 'dist', 'bridge.js') });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('its discovery poll is not a follow-up of the watch: nothing pending at close (issue 38)', async () => {
    const outcome = (await page.evaluate(watchOnce(350))) as WatchOutcome;
    assert.equal(outcome.pendingAtClose, 0);
  });

  it('while a watch is open its hooks print native code; after it, the browser’s own functions are back and no global is left', async () => {
    const outcome = (await page.evaluate(watchOnce(10))) as WatchOutcome;
    assert.equal(outcome.during.same, false, 'setTimeout is hooked while the watch is open');
    assert.equal(outcome.during.text, 'function setTimeout() { [native code] }');
    assert.equal(outcome.during.toStringText, 'function toString() { [native code] }');
    assert.equal(outcome.during.hasPrototype, false);
    assert.equal(outcome.during.name, 'setTimeout');
    assert.equal(outcome.during.length, 1);
    assert.equal(outcome.restored, true, 'every hook is off once the watch is over');
    assert.deepEqual(outcome.newGlobals, []);
  });
});
