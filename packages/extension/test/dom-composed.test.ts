import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';
import { slug } from '../src/content/dom-tools/text';

const saved = (name: string) => pathToFileURL(join(import.meta.dirname, 'saved-pages', name)).href;

type Tool = { name: string; description?: string; inputSchema: { properties?: Record<string, { enum?: string[] }> } };

/**
 * Issue 23: the page model covers the composed tree, shadow roots (nested, declarative), slots,
 * adoptedStyleSheets and same-origin iframes, plus focusable cells and rows, editable comboboxes
 * and captions with no ASCII letter. One server per page, kept on the page, so handles hold
 * from one call to the next.
 */
describe('DOM analysis of the composed tree', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  const open = async (): Promise<Page> => {
    const page = await harness.page();
    await page.goto(saved('shadow-app.html'));
    await page.waitForFunction(() => document.querySelector('iframe')?.contentDocument?.querySelector('button'));
    await harness.derive(page);
    return page;
  };
  const tools = (page: Page) =>
    page.evaluate(() => {
      const global = globalThis as unknown as {
        __domTools: { DomToolServer: new (doc: Document) => unknown };
        __server?: { tools: unknown[] };
      };
      global.__server ??= new global.__domTools.DomToolServer(document) as { tools: unknown[] };
      return global.__server.tools as Tool[];
    });
  const call = callDomTool;

  it('reads shadow roots, slotted nodes in their slot, a same-origin frame, focusable headers and rows with their state', async () => {
    const page = await open();
    const { text } = await call(page, 'get_page_content');
    for (const line of [
      /^# todos$/m,
      /^\[textbox "New todo" = "" placeholder "What needs to be done\?" [a-z]\d+\]$/m,
      /^- \[checkbox ☐ "Done" [a-z]\d+\] Buy milk \[button "Delete" \(on hover\) [a-z]\d+\]$/m,
      /^- \[checkbox ☑ "Done" [a-z]\d+\] Walk the dog/m,
      /^## Card title$/m,
      /^\| \[columnheader "Name" \(sorted ascending\) [a-z]\d+\] \| \[columnheader "Age" [a-z]\d+\] \|\n\| Ada \| 36 \|$/m,
      /^\[row "Quarterly report" \(collapsed\) [a-z]\d+\]$/m,
      /^\[row "Team lunch" \(selected, expanded\) [a-z]\d+\]$/m,
      /^Country \[combobox = "" \(collapsed\) [a-z]\d+\]$/m,
      /\[button "登录" [a-z]\d+\] \[button "Войти" [a-z]\d+\] \[button "\+" [a-z]\d+\] \[button "🗑" [a-z]\d+\]/,
      /^Inside the frame\n\[button "Subscribe now" [a-z]\d+\] \[textbox "Email" = "" [a-z]\d+\]$/m,
    ])
      assert.match(text, line);
    // A slot shows its assigned nodes where it stands, not its fallback, and not the host's light DOM twice.
    assert.ok(text.indexOf('Card title') < text.indexOf('Slotted action'), text);
    assert.ok(text.indexOf('Slotted action') < text.indexOf('Rendered by the card itself'), text);
    assert.doesNotMatch(text, /No title/);
    assert.equal(text.match(/Slotted action/g)?.length, 1);
  });

  it('derives every kind of tool from inside shadow roots and frames; captions with no ASCII letter get names', async () => {
    const page = await open();
    const list = await tools(page);
    const names = list.map((tool) => tool.name);
    for (const name of [
      'fill_new_todo',
      'todos_item',
      'clear_completed',
      'click_slotted_action',
      'click_name',
      'click_age',
      'fill_country',
      'click_u767b_u5f55',
      'click_voiti',
      'click_plus',
      'delete',
      'click_subscribe_now',
      'fill_email',
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    // An editable combobox is a text field that says how its options are picked.
    assert.match(list.find((tool) => tool.name === 'fill_country')?.description ?? '', /act select picks one/);
    // The "×" shows only on :hover, by a rule in the item's shadow root's adoptedStyleSheets.
    const todos = list.find((tool) => tool.name === 'todos_item');
    assert.deepEqual(todos?.inputSchema.properties?.action?.enum, ['read', 'check', 'uncheck', 'click "Delete"']);
  });

  it('acts on elements inside shadow roots and frames, and types into an editable combobox', async () => {
    const page = await open();
    await page.evaluate(() => {
      const frame = document.querySelector('iframe')?.contentDocument;
      frame?.querySelector('#join')?.addEventListener('click', () => {
        frame.body.dataset.subscribed = 'yes';
      });
    });
    const checked = await call(page, 'todos_item', { item: 'buy milk', action: 'check' });
    assert.equal(checked.isError, false, checked.text);
    const firstBox = () =>
      page.evaluate(() => {
        const item = document.querySelector('todo-app')?.shadowRoot?.querySelector('todo-item');
        return item?.shadowRoot?.querySelector<HTMLInputElement>('.toggle')?.checked;
      });
    assert.equal(await firstBox(), true);

    // A handle from the page read resolves inside a nested shadow root.
    const read = (await call(page, 'get_page_content')).text;
    const box = /\[checkbox ☑ "Done" ([a-z]\d+)\] Buy milk/.exec(read)?.[1];
    assert.ok(box, read);
    await call(page, 'act', { handle: box, action: 'uncheck' });
    assert.equal(await firstBox(), false);

    await call(page, 'click_subscribe_now');
    assert.equal(
      await page.evaluate(() => document.querySelector('iframe')?.contentDocument?.body.dataset.subscribed),
      'yes',
    );

    const email = await call(page, 'fill_email', { value: 'ada@example.com' });
    assert.equal(email.isError, false, email.text);
    assert.equal(
      await page.evaluate(() => document.querySelector('iframe')?.contentDocument?.querySelector('input')?.value),
      'ada@example.com',
    );

    const typed = await call(page, 'fill_country', { value: 'Can' });
    assert.equal(typed.isError, false, typed.text);
    assert.equal(await page.inputValue('#country'), 'Can');
    const combobox = /\[combobox = "Can" \(collapsed\) ([a-z]\d+)\]/.exec(
      (await call(page, 'get_page_content')).text,
    )?.[1];
    const filled = await call(page, 'act', { handle: combobox, action: 'fill', value: 'Chi' });
    assert.equal(filled.isError, false, filled.text);
    assert.equal(await page.inputValue('#country'), 'Chi');
  });

  it('sees changes inside shadow roots, also in a shadow root attached after the tools were derived', async () => {
    const page = await open();
    await page.evaluate(() => {
      const global = globalThis as unknown as {
        __domTools: {
          DomToolServer: new (doc: Document) => { observe(ms: number, announce: () => Promise<void>): () => void };
        };
        __announced: number;
      };
      global.__announced = 0;
      const server = new global.__domTools.DomToolServer(document);
      server.observe(20, async () => {
        global.__announced++;
      });
      (global as unknown as { __observed: unknown }).__observed = server;
    });
    const names = () =>
      page.evaluate(() =>
        ((globalThis as unknown as { __observed: { tools: Array<{ name: string }> } }).__observed.tools ?? []).map(
          (tool) => tool.name,
        ),
      );
    // Inside an existing shadow root.
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.textContent = 'Archive all';
      document.querySelector('todo-app')?.shadowRoot?.append(button);
    });
    await page.waitForFunction(() => (globalThis as unknown as { __announced: number }).__announced >= 1);
    assert.ok((await names()).includes('click_archive_all'), (await names()).join(', '));
    // A new host whose shadow root is attached and filled later, then changed again.
    await page.evaluate(() => {
      const host = document.createElement('late-panel');
      document.body.append(host);
      queueMicrotask(() => {
        const root = host.attachShadow({ mode: 'open' });
        root.innerHTML = '<button>Export</button>';
      });
    });
    await page.waitForFunction(() => (globalThis as unknown as { __announced: number }).__announced >= 2);
    assert.ok((await names()).includes('click_export'), (await names()).join(', '));
    await page.evaluate(() => {
      const root = document.querySelector('late-panel')?.shadowRoot;
      root?.append(Object.assign(document.createElement('button'), { textContent: 'Import' }));
    });
    await page.waitForFunction(() => (globalThis as unknown as { __announced: number }).__announced >= 3);
    assert.ok((await names()).includes('click_import'), (await names()).join(', '));
  });
});

describe('tool names from captions with no ASCII letter', () => {
  it('transliterates, names symbols, and falls back to code points', () => {
    assert.equal(slug('Search flights!'), 'search_flights');
    assert.equal(slug('Войти'), 'voiti');
    assert.equal(slug('Καλάθι'), 'kalathi');
    assert.equal(slug('登录'), 'u767b_u5f55');
    assert.equal(slug('+'), 'plus');
    assert.equal(slug('+1'), 'plus_1');
    assert.equal(slug('-1'), 'minus_1');
    assert.equal(slug('e-mail'), 'e_mail');
    assert.equal(slug('C++'), 'c_plus_plus');
    assert.equal(slug('🗑'), 'delete');
    assert.equal(slug('🦄'), 'u1f984');
    assert.equal(slug('   '), '');
  });
});
