import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

/**
 * Issue 23, what the React component libraries of the gauntlet need of the page model and of a
 * click, each on the smallest page that shows it: a press and its release in separate turns (Radix
 * Select), a cancelled mousedown keeping the focus (react-select, MUI Autocomplete), a header sorted
 * by a script's click on a box inside it (TanStack Table), a label away from its field naming it.
 */
describe('DOM tools on the patterns of React widget libraries', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  const open = async (html: string): Promise<Page> => {
    const page = await harness.page();
    await page.setContent(html);
    await harness.load(page);
    return page;
  };
  const call = (page: Page, name: string, args: Record<string, unknown> = {}) =>
    page.evaluate(
      async ([name, args]) => {
        type Server = { call(name: string, args: unknown): Promise<{ content: Array<{ text: string }> }> };
        const global = globalThis as unknown as {
          __domTools: { DomToolServer: new (doc: Document) => Server };
          __server?: Server;
        };
        global.__server ??= new global.__domTools.DomToolServer(document);
        return (await global.__server.call(name as string, args)).content[0]?.text ?? '';
      },
      [name, args] as const,
    );
  const handleOf = (read: string, token: RegExp) => {
    const handle = token.exec(read)?.[1];
    assert.ok(handle, `${token} in\n${read}`);
    return handle;
  };

  it('releases a click in a later turn than its press: a menu that arms on the press swallows only the next release', async () => {
    // Radix Select's pattern: the trigger's pointerdown opens the menu, whose listener (set once the
    // page rendered) swallows the next pointerup, for a person the trigger's own.
    const page = await open(`
      <button id="trigger">Country</button>
      <div role="option" id="canada">Canada</div>
      <script>
        window.picked = '';
        trigger.addEventListener('pointerdown', () => queueMicrotask(() =>
          document.addEventListener('pointerup', (event) => event.preventDefault(), { capture: true, once: true })));
        canada.addEventListener('pointerup', (event) => { if (!event.defaultPrevented) window.picked = 'CA'; });
      </script>`);
    const read = await call(page, 'get_page_content');
    await call(page, 'act', { handle: handleOf(read, /\[button "Country" ([a-z]\d+)\]/), action: 'click' });
    await call(page, 'act', { handle: handleOf(read, /\[option "Canada" ([a-z]\d+)\]/), action: 'click' });
    assert.equal(await page.evaluate(() => (window as unknown as { picked: string }).picked), 'CA');
  });

  it('clicks open a select whose input takes no keyboard and no pointer (Vuetify), never typing into it', async () => {
    // Vuetify's v-select: an input marked inputmode="none" with pointer-events: none inside the field that
    // opens the menu on mousedown; typing into the input would only jump the choice, leaving no menu a person saw.
    const page = await open(`
      <div id="field" role="combobox" aria-expanded="false" style="width: 300px; padding: 8px; border: 1px solid">
        <label for="box">Country</label>
        <div><span id="shown"></span><input id="box" role="combobox" inputmode="none" aria-controls="menu" style="pointer-events: none"></div>
      </div>
      <div role="listbox" id="menu" hidden><div role="option">Cameroon</div><div role="option">Canada</div></div>
      <script>
        window.typed = 0;
        field.addEventListener('mousedown', () => { menu.hidden = !menu.hidden; });
        box.addEventListener('keydown', () => { window.typed++; shown.textContent = 'Canada'; });
        box.addEventListener('input', () => window.typed++);
        menu.addEventListener('click', (event) => { shown.textContent = box.value = event.target.textContent; menu.hidden = true; });
      </script>`);
    const read = await call(page, 'get_page_content');
    const answer = await call(page, 'act', {
      handle: handleOf(read, /\[combobox = "" ([a-z]\d+)\]/),
      action: 'select',
      value: 'Canada',
    });
    assert.match(answer, /"done":"selected \\"Canada\\"/, answer);
    const after = await page.evaluate(() => ({
      typed: (window as unknown as { typed: number }).typed,
      shown: document.getElementById('shown')?.textContent,
      menuOpen: !document.getElementById('menu')?.hidden,
    }));
    assert.deepEqual(after, { typed: 0, shown: 'Canada', menuOpen: false });
  });

  it('keeps the focus where it is when the page cancels the mousedown, as the browser does', async () => {
    const page = await open(`
      <label for="box">Country</label> <input id="box" role="combobox">
      <div role="listbox" id="menu"><div role="option" tabindex="-1">Canada</div></div>
      <script>menu.addEventListener('mousedown', (event) => event.preventDefault());</script>`);
    await page.focus('#box');
    const read = await call(page, 'get_page_content');
    await call(page, 'act', { handle: handleOf(read, /\[option "Canada" ([a-z]\d+)\]/), action: 'click' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'box');
  });

  it('gives a header sorted by a click on a pointer box inside it a handle, and the click lands on that box', async () => {
    const page = await open(`
      <table><thead><tr>
        <th><div style="cursor: pointer" id="age">Age</div></th><th>Name</th>
      </tr></thead><tbody><tr><td>36</td><td>Ada</td></tr></tbody></table>
      <script>window.sorted = 0; age.addEventListener('click', () => window.sorted++);</script>`);
    const read = await call(page, 'get_page_content');
    assert.match(read, /^\| \[columnheader "Age" [a-z]\d+\] \| Name \|$/m);
    await call(page, 'act', { handle: handleOf(read, /\[columnheader "Age" ([a-z]\d+)\]/), action: 'click' });
    assert.equal(await page.evaluate(() => (window as unknown as { sorted: number }).sorted), 1);
  });

  it("writes a field's label in its token unless the label is the text right before it", async () => {
    const page = await open(`
      <label for="country">Country</label><div>Type a country</div><input id="country" role="combobox">
      <p><label for="email">Email</label> <input id="email"></p>`);
    const read = await call(page, 'get_page_content');
    assert.match(read, /\[combobox "Country" = "" [a-z]\d+\]/);
    assert.match(read, /Email \[textbox = "" [a-z]\d+\]/);
  });

  it("finds a field by its label on a line of its own: the label's passage carries the field", async () => {
    const page = await open(`
      <p>Plan a trip</p>
      <label for="departure" style="display: block">Departure date</label>
      <div><input id="departure"></div>
      <p>Return date is optional</p>`);
    const found = await call(page, 'get_page_content', { query: 'Departure date' });
    assert.match(found, /^Departure date\n\[textbox = "" [a-z]\d+\]$/m);
  });
});
