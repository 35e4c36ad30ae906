import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

/**
 * Issue 37 (react-window in the corpus): a box a person scrolls is something to act on, as the
 * browser's layout shows it (content past the box, `overflow` that lets the user scroll), whatever its
 * markup; and a key that scrolls it answers once the scroll stopped. In real Chromium.
 */
describe('boxes a person scrolls', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  /** react-window 2's shape: a `role=list` box with no tabindex, rows placed absolutely in a tall box. */
  const virtualList = (
    keydown = '',
  ) => `<main><div id="list" role="list" style="height: 200px; overflow-y: auto; position: relative">
      <div id="rows" style="height: 400000px"></div></div></main>
    <script>
      const list = document.getElementById('list');
      const rows = document.getElementById('rows');
      const render = () => {
        const first = Math.floor(list.scrollTop / 40);
        rows.innerHTML = [0, 1, 2, 3, 4].filter((n) => first + n < 10000).map((n) =>
          '<div role="listitem" style="position: absolute; top: ' + (first + n) * 40 + 'px">Invoice #' + (first + n + 1) +
          ' <button>Open invoice #' + (first + n + 1) + '</button></div>').join('');
      };
      list.addEventListener('scroll', render);
      render();
      ${keydown}
    </script>`;

  it('a list that scrolls leads its rows with a handle, its rows not its name; a plain box is "scrollable"', async () => {
    const page = await harness.page();
    await page.setContent(`${virtualList()}
      <div style="height: 60px; overflow: auto"><p style="height: 200px">A long note</p></div>
      <div style="height: 60px; overflow: hidden"><p style="height: 200px">Clipped, not scrolled</p></div>
      <div style="height: 60px; overflow: auto"><p>Fits</p></div>`);
    const { content } = await harness.derive(page);
    assert.match(content, /\[list \(scrollable\) [a-z]\d+\]\s*Invoice #1 \[button "Open invoice #1"/, content);
    assert.match(content, /\[scrollable [a-z]\d+\]\s*A long note/, content);
    assert.equal(content.match(/scrollable/g)?.length, 2, `only the boxes that scroll:\n${content}`);
  });

  it('a row below its list’s fold, inside the window, is scrolled into the list’s view before a click', async () => {
    const page = await harness.page();
    // react-window's rows of measured heights: after End the list grew and its last row sits below the fold.
    await page.setContent(`<main><div id="list" style="height: 100px; overflow-y: auto">
        <div style="height: 150px">Message #4999</div><div>Message #5000 <button id="last">Reply to message #5000</button></div>
      </div><p style="height: 300px">Below the list</p></main>
      <script>window.replied = 0; last.addEventListener('click', () => window.replied++);</script>`);
    const { content } = await harness.derive(page);
    const handle = /\[button "Reply to message #5000" ([a-z]\d+)\]/.exec(content)?.[1] ?? '';
    const clicked = await callDomTool(page, 'act', { handle, action: 'click' });
    assert.equal(clicked.isError, false, clicked.text);
    assert.equal(await page.evaluate(() => (window as unknown as { replied: number }).replied), 1);
  });

  it('End whose smooth scroll fires its first scroll event frames after the key answers with where it stopped', async () => {
    const page = await harness.page();
    // As Chromium scrolls for End: smoothly, its first scroll event a frame or more after the key (react-window's
    // list: 33 ms at 60 Hz). The synthetic key here (no debugger) gets the browser's own smooth scroll from the page.
    await page.setContent(
      virtualList(`list.addEventListener('keydown', (event) => {
        if (event.key === 'End') list.scrollTo({ top: list.scrollHeight, behavior: 'smooth' });
      });`),
    );
    const { content } = await harness.derive(page);
    const handle = /\[list \(scrollable\) ([a-z]\d+)\]/.exec(content)?.[1] ?? '';
    const pressed = await callDomTool(page, 'act', { handle, action: 'press', key: 'End' });
    assert.equal(pressed.isError, false, pressed.text);
    assert.match(pressed.text, /Invoice #10000/, pressed.text);
  });
});
