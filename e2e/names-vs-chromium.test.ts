import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { buildCorpusLibraries } from '../examples/corpus-libs/build';
import { chromiumArgs } from '../packages/server/src/launcher/chromium-args';
import { available, corpusTasks } from '../test-support/corpus/catalog';
import { startCorpusSite } from '../test-support/corpus/serve';
import { type NamePair, namesOnPage, sameRole, verdictOf } from '../test-support/names-vs-chromium';

/**
 * Issue 37, "role and name as Chromium computes them", with Chromium as the judge: every control tabmcp's page
 * model finds is named as Chromium's accessibility tree names the same element (or named where Chromium leaves
 * it nameless, shortened, or without a drawn glyph: test-support/names-vs-chromium.ts). No expected name is
 * written here. Pages: one that gathers the naming rules the corpus found, every npm corpus page, and, where
 * scripts/corpus-layout.mjs laid them out, every ARIA Practices example. bench/names-vs-chromium.ts runs all
 * corpus pages and counts.
 */
const RULES_PAGE = `<main>
  <p><label for="name">Name<span aria-hidden="true">*</span>:</label><input id="name"></p>
  <label><span>Reduced motion</span><input type="checkbox" role="switch"><span aria-hidden="true">On</span></label>
  <ul role="listbox" aria-label="Goals">
    <li role="option" aria-selected="true"><button aria-label="favorite" tabindex="-1"></button> Climb Everest</li>
  </ul>
  <ul role="tree" aria-label="Files"><li role="treeitem" aria-expanded="true" tabindex="0"><span>Projects</span>
    <ul role="group"><li role="treeitem" tabindex="-1">project-1.docx</li></ul></li></ul>
  <div role="menubar"><div role="menuitem" tabindex="0" aria-haspopup="true" aria-expanded="true">File
    <div role="menu"><div role="menuitem" tabindex="-1">Open</div></div></div></div>
  <button><svg width="12" height="12"><title>Close</title><path d="M0 0L12 12"></path></svg></button>
  <a href="#top">Top<div role="group"><span>of the page</span></div></a>
  <details><summary>Shipping terms</summary>Ships in 3 days.</details>
  <input type="number" aria-label="Copies" value="2"> <input type="search" aria-label="Find">
</main>`;

function findings(pairs: NamePair[]): string[] {
  return pairs
    .filter((pair) => verdictOf(pair) === 'differs' || !sameRole(pair))
    .map(
      (pair) =>
        `${pair.role} ${JSON.stringify(pair.ours)} · Chromium ${pair.chromiumRole} ${JSON.stringify(pair.chromium)} · ${pair.tag}`,
    );
}

describe("roles and names as Chromium's accessibility tree gives them", () => {
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startCorpusSite>>;
  before(async () => {
    await buildCorpusLibraries();
    site = await startCorpusSite();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs() });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('the naming rules the corpus found: hidden parts, labelled parts, containers, drawings; typed inputs by their role', async () => {
    const page = await browser.newPage();
    await page.setContent(RULES_PAGE);
    const pairs = await namesOnPage(page);
    assert.ok(pairs.length >= 11, `every control compared: ${JSON.stringify(pairs)}`);
    assert.deepEqual(findings(pairs), []);
    await page.close();
  });

  const pages = [
    ...new Set(
      [...corpusTasks.npm, ...(available['aria-practices'] ? corpusTasks['aria-practices'] : [])].map(
        (task) => task.path,
      ),
    ),
  ];
  it(`${pages.length} corpus pages: no control named or given a role otherwise than Chromium does`, async () => {
    const found: string[] = [];
    for (const path of pages) {
      const page = await browser.newPage();
      await page.goto(`${site.url}${path}`, { waitUntil: 'networkidle', timeout: 20_000 });
      found.push(...findings(await namesOnPage(page)).map((line) => `${path}: ${line}`));
      await page.close();
    }
    assert.deepEqual(found, []);
  });
});
