import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

/**
 * Issue 37: ARIA patterns as the W3C ARIA Practices examples write them (the corpus found each one
 * missing or misread), in real Chromium, read as a person and Chromium's accessibility tree see them.
 */
describe('ARIA patterns the page read must keep', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  it('an SVG slider and SVG radios are widgets, not pictures; an icon drawing stays out', async () => {
    const page = await harness.page();
    await page.setContent(`<main><span id="seek">Seek</span>
      <svg width="300" height="40"><g role="slider" tabindex="0" aria-valuenow="90" aria-labelledby="seek">
        <rect width="20" height="20" fill="blue"></rect></g></svg>
      <div role="radiogroup" aria-label="Rating"><svg width="200" height="40">
        <g role="radio" aria-checked="false" aria-label="four stars" tabindex="0"><rect x="10" width="20" height="20"></rect></g>
      </svg></div>
      <button><svg width="16" height="16"><text y="12">icon text</text></svg>Save</button></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[slider "Seek" = "90" [a-z]\d+\]/, content);
    assert.match(content, /\[radio ☐ "four stars" [a-z]\d+\]/, content);
    assert.doesNotMatch(content, /icon text/, 'a drawing with no widget says nothing');
  });

  it('a tri-state checkbox that is mixed is neither checked nor unchecked: check clicks it', async () => {
    const page = await harness.page();
    await page.setContent(`<main><div role="checkbox" tabindex="0" aria-checked="mixed" id="all">All condiments</div></main>
      <script>document.getElementById('all').addEventListener('click', (event) => event.target.setAttribute('aria-checked', 'true'));</script>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[checkbox ◩ \(mixed\) "All condiments" [a-z]\d+\]/, content);
    const handle = /"All condiments" ([a-z]\d+)\]/.exec(content)?.[1] ?? '';
    const answer = await callDomTool(page, 'act', { handle, action: 'check' });
    assert.equal(answer.isError, false, answer.text);
    assert.match(answer.text, /"done":"checked/);
    assert.equal(await page.getAttribute('#all', 'aria-checked'), 'true');
  });

  it('the days of a date picker grid are cells a person clicks, so are a combobox grid popup’s cells; a self-reference names by aria-label', async () => {
    const page = await harness.page();
    await page.setContent(`<main><table role="grid" aria-label="November 2026"><tbody>
        <tr><td tabindex="-1" data-date="2026-11-13">13</td><td tabindex="0" data-date="2026-11-14">14</td></tr>
      </tbody></table>
      <input role="combobox" aria-label="Fruit" aria-controls="fruits" aria-expanded="true">
      <div role="grid" id="fruits" aria-label="Fruits"><div role="row" id="r1"><div role="gridcell">Apple</div><div role="gridcell">Fruit</div></div></div>
      <span role="button" tabindex="0" id="rb1" aria-label="Remove" aria-labelledby="rb1 r2"> X </span><a id="r2" href="#">Ada</a></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[gridcell "13" [a-z]\d+\]/, content);
    assert.match(content, /\[gridcell "Apple" [a-z]\d+\]/, content);
    assert.match(content, /\[button "Remove Ada" [a-z]\d+\]/, content);
  });

  it('a collapsed tree item is one token named by its own text; its hidden group is not read', async () => {
    const page = await harness.page();
    await page.setContent(`<main><ul role="tree" aria-label="Files">
      <li role="treeitem" aria-expanded="false" tabindex="0"><span>Projects</span>
        <ul role="group" style="display: none"><li role="treeitem" tabindex="-1">project-1.docx</li></ul></li>
      <li role="treeitem" aria-expanded="false" tabindex="-1"><span>Reports</span>
        <ul role="group" style="display: none"><li role="treeitem" tabindex="-1">report-1.docx</li></ul></li>
    </ul></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[treeitem "Projects" \(collapsed\) [a-z]\d+\]/, content);
    assert.match(content, /\[treeitem "Reports" \(collapsed\) [a-z]\d+\]/, content);
    assert.doesNotMatch(content, /report-1/, content);
  });

  it('an open tree item keeps its own name: its group is no part of it (Chromium leaves it out), so a click renames nothing', async () => {
    const page = await harness.page();
    await page.setContent(`<main><ul role="tree" aria-label="Files">
      <li role="treeitem" aria-expanded="false" tabindex="0" id="projects"><span>Projects</span>
        <ul role="group" style="display: none"><li role="treeitem" tabindex="-1">project-1.docx</li></ul></li>
    </ul></main>
    <script>document.getElementById('projects').addEventListener('click', (event) => {
      event.currentTarget.setAttribute('aria-expanded', 'true');
      event.currentTarget.querySelector('[role=group]').style.display = '';
    });</script>`);
    const { content } = await harness.derive(page);
    const handle = /\[treeitem "Projects" \(collapsed\) ([a-z]\d+)\]/.exec(content)?.[1] ?? '';
    const answer = await callDomTool(page, 'act', { handle, action: 'click' });
    assert.equal(answer.isError, false, answer.text);
    assert.match(answer.text, /"done":"clicked treeitem \\"Projects\\""/, answer.text);
    assert.doesNotMatch(answer.text, /renamed/, answer.text);
    assert.match(answer.text, /project-1\.docx/, 'the group it opened is in the answer');
  });

  it('a clickable box with no role is named by the words a person reads, not by an icon part labelled inside it', async () => {
    const page = await harness.page();
    await page.setContent(`<main><div class="select" tabindex="0" style="cursor: pointer">Choose a country
      <div role="img" aria-label="loading" style="display: inline-block; width: 14px; height: 14px"></div></div>
      <div role="option" aria-selected="false" tabindex="-1"><span role="img" aria-label="favorite">★</span> Learn archery</div></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[clickable "Choose a country" [a-z]\d+\]/, content);
    assert.match(
      content,
      /\[option "favorite Learn archery"/,
      'an option is named from its content, parts by their labels',
    );
  });

  it('a list a person scrolls is named by its author only, never by its rows', async () => {
    const page = await harness.page();
    await page.setContent(`<main><div role="list" style="overflow: auto; height: 60px">
      ${Array.from({ length: 20 }, (_, index) => `<div role="listitem">Message #${index + 1} <button>Reply</button></div>`).join('')}
    </div></main>`);
    const { content } = await harness.derive(page);
    const handle = /\[list \(scrollable\) ([a-z]\d+)\]/.exec(content)?.[1];
    assert.ok(handle, content);
    const answer = await callDomTool(page, 'act', { handle, action: 'click' });
    assert.match(answer.text, /"done":"clicked list"/, answer.text);
  });

  it('a details summary says whether its details are open, as its triangle does', async () => {
    const page = await harness.page();
    await page.setContent(`<main><details><summary>Shipping terms</summary>Ships in 3 days.</details></main>`);
    const { content } = await harness.derive(page);
    const handle = /\[button "Shipping terms" \(collapsed\) ([a-z]\d+)\]/.exec(content)?.[1];
    assert.ok(handle, content);
    const answer = await callDomTool(page, 'act', { handle, action: 'click' });
    assert.match(answer.text, /Shipping terms\\" \(expanded\)/, answer.text);
    assert.match(answer.text, /Ships in 3 days/, answer.text);
  });

  it('a checkbox nobody labelled is named by its row, as a person reads it; a nameless button is not', async () => {
    const page = await harness.page();
    await page.setContent(`<main><ul class="todo-list">
      <li><div class="view"><input class="toggle" type="checkbox"><label>Buy milk</label><button class="destroy"></button></div></li>
      <li><div class="view"><input class="toggle" type="checkbox"><label>Walk the dog</label><button class="destroy"></button></div></li>
    </ul></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[checkbox ☐ "Walk the dog" [a-z]\d+\]/, content);
    assert.match(content, /\[checkbox ☐ "Buy milk" [a-z]\d+\]/, content);
    assert.doesNotMatch(content, /\[button "Walk the dog"/, content);
  });

  it('rows of a virtual list scrolled to its end are read, though its wrapper sits far above the page', async () => {
    const page = await harness.page();
    // react-virtuoso's shape: an absolutely placed wrapper as tall as the scroller, a list padded to the rows shown.
    await page.setContent(`<main><div id="scroller" style="height: 200px; overflow-y: auto; position: relative">
      <div style="height: 100%; position: absolute; top: 0; width: 100%">
        <div style="padding-top: 100000px"><div>Order #9999 <button>Open order #9999</button></div></div>
      </div><div style="height: 100200px"></div></div></main>`);
    await page.evaluate(() => {
      const scroller = document.getElementById('scroller') as HTMLElement;
      scroller.scrollTop = 100000;
    });
    const { content } = await harness.derive(page);
    assert.match(content, /\[button "Open order #9999" [a-z]\d+\]/, content);
  });

  it('a grid of pills in a box of font-size 0 (the inline-block gap trick) is read: a container is no control', async () => {
    const page = await harness.page();
    await page.setContent(`<main><div role="grid" aria-label="Send to" style="font-size: 0">
      <div role="row" style="display: inline-block; font-size: 14px"><span role="gridcell"><a href="#">Ada</a></span></div>
    </div></main>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[link "Ada" [a-z]\d+\]/, content);
  });
});
