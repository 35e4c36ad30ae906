import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

/**
 * Issue 37, found on the corpus's Tabulator and Lexical pages (e2e/corpus.test.ts runs them): a data
 * grid whose rows, sortable headers and tree toggles say they are clickable only by a `:hover`
 * cursor, under `@media (hover: hover) and (pointer: fine)`; a toggle with no name in a row; a
 * number editor; an editor whose lines are `<br>`s. The markup is Tabulator's and Lexical's shape.
 */
const GRID = `<style>
  @media (hover: hover) and (pointer: fine) {
    .tab-row.selectable:hover { cursor: pointer }
    .tab-col.sortable:hover { cursor: pointer }
    .tab-row .tree-toggle:hover { cursor: pointer }
    .menu li:hover { cursor: pointer }
  }
  .tree-toggle { display: inline-block; width: 11px; height: 11px; border: 1px solid #333; margin-right: 5px }
  [role=row] { display: flex } [role=row] > * { width: 120px }
</style>
<main><div role="grid">
  <div role="row"><div role="columnheader" class="tab-col sortable" aria-sort="none">Name</div>
    <div role="columnheader" class="tab-col sortable" aria-sort="none">Age</div></div>
  <div role="row" class="tab-row selectable"><div role="gridcell"><div class="tree-toggle" tabindex="0"></div>Engineering</div>
    <div role="gridcell" tabindex="0"></div></div>
  <div role="row" class="tab-row selectable"><div role="gridcell">Bob Smith</div><div role="gridcell" tabindex="0">29</div></div>
</div>
<ul class="menu"><li><a href="#home">Home</a></li></ul>
<button style="width: 20px; height: 20px; border: 1px solid"></button></main>`;

describe('a data grid and an editor as component libraries draw them', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  for (const pointer of ['a mouse', 'no hovering pointer (a headless or touch browser)'])
    it(`rows and sortable headers that show a pointer on hover are controls, with ${pointer}`, async () => {
      const page = await harness.page();
      if (pointer !== 'a mouse') {
        // The browser then reports `(hover: none)`: tabmcp still points with a mouse, and a person with one sees the cursor.
        const session = await page.context().newCDPSession(page);
        await session.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
        await session.send('Emulation.setEmitTouchEventsForMouse', { enabled: true });
        assert.equal(await page.evaluate(() => matchMedia('(hover: hover)').matches), false);
      }
      await page.setContent(GRID);
      const { content } = await harness.derive(page);
      assert.match(content, /\[columnheader "Age" [a-z]\d+\]/, content);
      assert.match(content, /\[row [a-z]\d+\]\s+Bob Smith/, content);
      // A menu's item around its link is read as the link, as with a cursor set without :hover.
      assert.doesNotMatch(content, /\[clickable "Home"/, content);
    });

  it('a control nobody named keeps its place in a table row; outside a row it is left out', async () => {
    const page = await harness.page();
    await page.setContent(GRID);
    const { content } = await harness.derive(page);
    assert.match(content, /\[clickable [a-z]\d+\] Engineering/, content);
    assert.doesNotMatch(content, /\[button [a-z]\d+\]/, content);
  });

  it('a number field is a spin button, and fill and Enter still type into it', async () => {
    const page = await harness.page();
    await page.setContent(`<main><form onsubmit="event.preventDefault(); document.title = 'sent ' + this.age.value">
      <label>Age <input type="number" name="age" value="29"></label></form></main>`);
    const { content } = await harness.derive(page);
    const handle = /Age \[spinbutton = "29" ([a-z]\d+)\]/.exec(content)?.[1];
    assert.ok(handle, content);
    const filled = await callDomTool(page, 'act', { handle, action: 'fill', value: '42', submit: true });
    assert.equal(filled.isError, false, filled.text);
    assert.equal(await page.title(), 'sent 42');
  });

  it("an editor's lines read as separate words, not run together", async () => {
    const page = await harness.page();
    await page.setContent(`<main><h1 id="notes">Notes</h1><div contenteditable="true" role="textbox"
      aria-labelledby="notes"><p><span>Buy milk</span><br><span>Call the bank</span></p></div></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[textbox "Notes" = "Buy milk Call the bank" [a-z]\d+\]/, content);
  });
});
