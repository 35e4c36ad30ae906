// open_tab's settle derives a page's tools again only when the last derivation may not be the ready
// page's (docs/dom-tools.md, "When open_tab answers"): the extension's DomToolServer in headless Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

/** A button in the document and one in a component's shadow root, which the document's own observers do not see. */
const PAGE = `<!doctype html><title>Stands</title><button>Save</button><div id="host"></div>
<script>document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<button>Open</button>';</script>`;

type Step = 'derive' | 'stands' | 'standsSinceNow' | 'changeShadow';

/** Runs steps against one observing server kept on the page, returning what `stands` steps answered. */
function run(page: Page, steps: Step[]): Promise<boolean[]> {
  return page.evaluate(async (steps) => {
    type Server = {
      observe(debounceMs: number, announce: () => Promise<void>): () => void;
      refresh(): boolean;
      derivationStands(layoutChangedAt: number): boolean;
    };
    const global = globalThis as unknown as {
      __domTools: { DomToolServer: new (doc: Document) => Server };
      __server?: Server;
    };
    if (!global.__server) {
      global.__server = new global.__domTools.DomToolServer(document);
      // Long debounce: the server's own re-derivation after a change must not run within the test.
      global.__server.observe(60_000, async () => {});
    }
    const server = global.__server;
    const answers: boolean[] = [];
    for (const step of steps) {
      if (step === 'derive') server.refresh();
      else if (step === 'stands') answers.push(server.derivationStands(Number.NEGATIVE_INFINITY));
      else if (step === 'standsSinceNow') answers.push(server.derivationStands(performance.now() + 1));
      else if (step === 'changeShadow') {
        const root = document.getElementById('host')?.shadowRoot;
        root?.append(Object.assign(document.createElement('button'), { textContent: 'Close' }));
      }
    }
    return answers;
  }, steps);
}

describe('a derivation stands until the page changes after it', () => {
  let harness: DomHarness;
  let page: Page;
  before(async () => {
    harness = await startDomHarness();
    page = await harness.page();
    await page.setContent(PAGE);
    await page.waitForFunction(() => document.readyState === 'complete');
    await harness.load(page);
  });
  after(() => harness.close());

  it('stands right after a derivation of the loaded page', async () => {
    assert.deepEqual(await run(page, ['derive', 'stands']), [true]);
  });

  it("does not stand once a component's shadow root changed, until derived again", async () => {
    // Not delivered to the observer yet when asked: the pending records are taken first.
    assert.deepEqual(await run(page, ['derive', 'changeShadow', 'stands', 'derive', 'stands']), [false, true]);
  });

  it('does not stand when the layout may have changed after it (a request ended since)', async () => {
    assert.deepEqual(await run(page, ['derive', 'standsSinceNow']), [false]);
  });
});
