import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { callDomTool, type DomHarness, startDomHarness } from '../../../test-support/dom-in-chromium';

const saved = (name: string) => pathToFileURL(join(import.meta.dirname, 'saved-pages', name)).href;
const example = (path: string) => pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'examples', path)).href;
const realWorld = (name: string) => example(`real-world/${name}`);

/** Issue 10: the DOM analysis on saved pages, in real Chromium (layout decides what is shown). */
describe('DOM analysis on saved pages', () => {
  let harness: DomHarness;
  before(async () => {
    harness = await startDomHarness();
  });
  after(() => harness?.close());

  it('reads every landmark as a person sees it: no hidden text, no comments, word boundaries, state, source case', async () => {
    const page = await harness.page();
    await page.goto(saved('landmarks.html'));
    const { tools, content } = await harness.derive(page);
    for (const landmark of [
      '[link "Mail"',
      '3 unread',
      '[link "Inbox" (current)',
      '## Labels',
      'Storage: 2.1 GB of 15 GB',
    ])
      assert.ok(content.includes(landmark), `${landmark} in:\n${content}`);
    assert.match(content, /## Search mail/, 'source case, not text-transform');
    assert.match(content, /^1 item left$/m, 'a space between inline elements is kept');
    assert.match(content, /\[combobox = "Sent" \(options: Inbox, Sent\) [a-z]\d+\]/);
    assert.match(content, /\[checkbox ☑ [a-z]\d+\] Unread only/);
    assert.match(
      content,
      /From \[textbox = "" placeholder "e\.g\. ada@example\.com" [a-z]\d+\]/,
      'the hint an empty box shows',
    );
    assert.match(content, /\[button "Archive" \(disabled\) [a-z]\d+\]/);
    for (const hidden of ['Hidden by', 'assistive technology', 'comment'])
      assert.ok(!content.includes(hidden), `${hidden} must not be read`);

    const search = tools.find((tool) => tool.name === 'search_mail');
    assert.ok(search, tools.map((tool) => tool.name).join(', '));
    const from = (search.inputSchema as { properties: Record<string, { description?: string }> }).properties.from;
    assert.equal(from?.description, 'From — e.g. ada@example.com', 'no doubled "e.g. e.g."');
  });

  it('tabs, a menu button and a dialog: click tools by accessible name; closed menus and dialogs are not offered', async () => {
    const page = await harness.page();
    await page.goto(example('dom-patterns/panels.html'));
    const names = async () => (await harness.derive(page)).tools.map((tool) => tool.name);
    const { content } = await harness.derive(page);
    assert.match(
      content,
      /^\[tab "Overview" \(selected\) [a-z]\d+\] \[tab "Billing" [a-z]\d+\] \[tab "Members" [a-z]\d+\]$/m,
    );
    assert.match(
      content,
      /^\[button "Project actions" \(collapsed\) [a-z]\d+\]$/m,
      'an icon button named by aria-label',
    );
    const reading = ['get_page_content', 'open_link', 'act', 'scroll'];
    assert.deepEqual(await names(), [
      'click_overview',
      'click_billing',
      'click_members',
      'click_project_actions',
      ...reading,
    ]);
    await page.click('#menu-button');
    assert.deepEqual((await names()).slice(3, 7), [
      'click_project_actions',
      'click_rename',
      'click_duplicate',
      'click_archive',
    ]);
    await page.click('#archive-item');
    assert.match((await harness.derive(page)).content, /^\[dialog\]\n+## Archive Project Teapot\?$/m);
    assert.deepEqual((await names()).slice(3), [
      'click_project_actions',
      'close_dialog',
      'click_archive_project',
      ...reading,
    ]);
  });

  it('a large real page: a bounded tool list and a paged read', async () => {
    const page = await harness.page();
    await page.goto(realWorld('underscore.html'));
    const { tools, content } = await harness.derive(page);
    assert.ok(tools.length <= 40, `${tools.length} tools`);
    assert.match(
      content.split('\n')[0] ?? '',
      / \(characters 0–8000 of more than \d{4,}; continue with offset 8000\)$/,
    );
    assert.match(
      content.split('\n')[1] ?? '',
      /^\[page text from file:\/\/\] Underscore/,
      'all after the mark is page text',
    );
    assert.ok(content.length < 8_400, `${content.length}`);
  });

  it('a list of nothing but links gets no item tool (open_link reaches them); one with another control does', async () => {
    const page = await harness.page();
    await page.setContent(`<main><h2>Source code</h2><ul>
      <li>CSS: <a href="#faq-css">faq.css</a></li><li>JavaScript: <a href="#faq-js">faq.js</a></li></ul>
      <h2>Results</h2><ul>
      <li><a href="/mug">Blue mug</a> <button>Add to basket</button></li>
      <li><a href="/cup">Red cup</a> <button>Add to basket</button></li></ul></main>`);
    const { tools, content } = await harness.derive(page);
    const items = tools.map((tool) => tool.name).filter((name) => name.endsWith('_item'));
    assert.deepEqual(items, ['results_item'], tools.map((tool) => tool.name).join(', '));
    assert.match(content, /CSS: \[link "faq\.css" [a-z]\d+\]/, 'the links stay in the read');
    const followed = await callDomTool(page, 'open_link', { text: 'faq.js' });
    assert.ok(!followed.isError, followed.text);
    assert.match(page.url(), /#faq-js$/);
  });

  it('a spin box’s − and + icon buttons are no list of items, as two captioned buttons are not', async () => {
    const page = await harness.page();
    await page.setContent(`<main><label for="kids">Kids</label><div class="spinner">
      <button type="button" title="Remove kid"><span aria-hidden="true">−</span></button>
      <input id="kids" value="0"><button type="button" title="Add kid"><span aria-hidden="true">+</span></button>
      </div></main>`);
    const { tools } = await harness.derive(page);
    const names = tools.map((tool) => tool.name);
    assert.deepEqual(
      names.filter((name) => name.endsWith('_item')),
      [],
      names.join(', '),
    );
    assert.ok(names.includes('add_kid') && names.includes('remove_kid'), names.join(', '));
  });

  it('a link below the page’s folder is written relative to it; open_link takes any form of its address', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tabmcp-links-'));
    const file = join(folder, 'docs', 'guide.html');
    mkdirSync(join(folder, 'docs', 'api'), { recursive: true });
    writeFileSync(join(folder, 'docs', 'api', 'list.html'), '<p>List</p>');
    writeFileSync(
      file,
      `<main><p><a href="intro.html">Intro</a> <a href="api/list.html">List</a> <a href="../home.html">Home</a>
      <a href="./docs:odd.html">Odd</a> <a href="./">Folder</a></p></main>`,
    );
    const page = await harness.page();
    await page.goto(pathToFileURL(file).href);
    const { content } = await harness.derive(page);
    const here = new URL(pathToFileURL(file).href).pathname;
    const up = here.slice(0, here.lastIndexOf('/docs/'));
    assert.match(content, /\[link "Intro" [a-z]\d+\]\(intro\.html\)/);
    assert.match(content, /\[link "List" [a-z]\d+\]\(api\/list\.html\)/);
    assert.ok(content.includes(`](${up}/home.html)`), `above the folder, the whole path: ${content}`);
    assert.ok(content.includes(`](${up}/docs/docs:odd.html)`), `what would read as a scheme stays whole: ${content}`);
    assert.ok(content.includes(`](${up}/docs/)`), `the folder itself stays whole: ${content}`);
    for (const href of ['api/list.html', `${up}/docs/api/list.html`]) {
      await page.goto(pathToFileURL(file).href);
      await harness.load(page);
      const followed = await callDomTool(page, 'open_link', { href });
      assert.ok(!followed.isError, `${href}: ${followed.text}`);
      await page.waitForURL(/api\/list\.html$/, { timeout: 5_000 });
    }
  });

  it('10,000 elements: the tool list stays small, the page is paged and nothing is dropped', async () => {
    const page = await harness.page();
    await page.setContent(
      `<main><h1>Big table</h1><table><tbody>${Array.from(
        { length: 2_500 },
        (_, i) =>
          `<tr><td><input type="checkbox" aria-label="Pick row ${i}"></td><td>Row ${i}</td><td><a href="#r${i}">Open ${i}</a></td><td><button>Delete</button></td></tr>`,
      ).join('')}</tbody></table></main>`,
    );
    const { tools, content } = await harness.derive(page);
    const listBytes = Buffer.byteLength(JSON.stringify(tools));
    assert.ok(listBytes < 16_384, `${listBytes} B of tools`);
    const rows = tools.find((tool) => tool.name.endsWith('_item'));
    assert.ok(rows, tools.map((tool) => tool.name).join(', '));
    assert.match(content, /of more than \d+; continue with offset 8000\)/, 'the first read walks only what it shows');
    const { pages, last } = await page.evaluate(async () => {
      type Server = {
        call(name: string, args: Record<string, unknown>): Promise<{ content: Array<{ text: string }> }>;
      };
      const { DomToolServer } = (
        globalThis as unknown as { __domTools: { DomToolServer: new (doc: Document) => Server } }
      ).__domTools;
      const server = new DomToolServer(document);
      let text = '';
      let pages = 0;
      for (let offset: number | undefined = 0; offset !== undefined; pages++) {
        text = (await server.call('get_page_content', { offset, maxChars: 50_000 })).content[0]?.text ?? '';
        const next = /continue with offset (\d+)\)/.exec(text)?.[1];
        offset = next === undefined ? undefined : Number(next);
      }
      return { pages, last: text };
    });
    assert.ok(pages >= 3, `the whole table is there to page through: ${pages} pages of 50,000`);
    assert.match(last, /Row 2499/, 'the last row is reachable by paging');
  });
});
