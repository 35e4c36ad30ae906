import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

const saved = pathToFileURL(join(import.meta.dirname, 'saved-pages', 'styled-controls.html')).href;

/**
 * Issue 23: controls a library marks only by its cursor (jQuery UI's sortable items, flatpickr's
 * days, an autocomplete's entries) or by `draggable` get handles; a short control whose text sits in
 * a block of its own is one token with its name; `act select` on an editable region selects text.
 */
describe('DOM analysis: controls drawn only by their cursor, and text selection', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  const call = callDomTool;
  const open = async (): Promise<Page> => {
    const page = await harness.page();
    await page.goto(saved);
    await harness.derive(page);
    return page;
  };
  const handleOf = (text: string, token: RegExp) => token.exec(text)?.[1];

  it('gives handles to sortable items, calendar days, suggestions and draggables, not to what only inherits a cursor', async () => {
    const page = await open();
    const { text } = await call(page, 'get_page_content');
    for (const line of [
      /\[clickable "Pay rent" [a-z]\d+\]/,
      /\[clickable "Buy milk" [a-z]\d+\]/,
      /\[clickable "March 12, 2027" [a-z]\d+\]/,
      /\[clickable "March 13, 2027" [a-z]\d+\]/,
      /\[clickable "Drag me" [a-z]\d+\]/,
      // The entry's own <li> sets the cursor; the <div> inside only inherits it, and is no second control.
      /\[clickable "Canada" [a-z]\d+\]/,
      /\[link "Home" [a-z]\d+\]/,
      /\[textbox "Letter" = "First paragraph\. Second paragraph\." [a-z]\d+\]/,
    ])
      assert.match(text, line);
    assert.equal(text.match(/Canada/g)?.length, 1, text);
    // A menu's <li> around its link is read as the link; a focus target (<main tabindex=-1>) is no control.
    assert.doesNotMatch(text, /\[clickable "Home"/);
    assert.doesNotMatch(text, /\[clickable "Plain text/);
  });

  it('selects a piece of an editable region’s text with act select', async () => {
    const page = await open();
    const { text } = await call(page, 'get_page_content');
    const handle = handleOf(text, /\[textbox "Letter" = "[^"]*" ([a-z]\d+)\]/);
    assert.ok(handle, text);
    const selected = await call(page, 'act', { handle, action: 'select', value: 'Second paragraph.' });
    assert.equal(selected.isError, false, selected.text);
    assert.equal(await page.evaluate(() => String(document.getSelection())), 'Second paragraph.');
    const missing = await call(page, 'act', { handle, action: 'select', value: 'Third paragraph.' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /selects a piece of its text: value must be text that/);
  });
});
