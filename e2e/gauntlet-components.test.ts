import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { buildComponentFixtures } from '../examples/components/build';
import { textOf } from '../test-support/harness';
import { type ListedTool, ScriptedAgent } from '../test-support/real-app-agent';
import { type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 23, the page model: tasks worded as a user would say them, on fixtures built from real
 * web-component libraries installed from npm (Lit, Shoelace, Material Web, DataTables; glue only, in
 * examples/components). A scripted agent picks tabmcp's tools by their descriptions and by what
 * the page read shows, through the official MCP SDK client; each outcome is read from the
 * library's own state in the page, never from a tool's answer. Calls and bytes read are printed.
 */
describe('gauntlet: web-component libraries (shadow DOM, comboboxes, sortable headers)', () => {
  let scene: LaunchedScene;
  const costs: string[] = [];

  before(async () => {
    await buildComponentFixtures();
    scene = await startLaunchedScene();
  });

  after(async () => {
    process.stderr.write(`gauntlet-components: ${costs.join('; ')}\n`);
    await scene?.close();
  });

  let opened = 0;
  const start = async (path: string): Promise<{ agent: ScriptedAgent; page: Page }> => {
    const url = `${path}?tab=${++opened}`;
    const agent = new ScriptedAgent(scene.agent);
    await agent.call('open_tab', { url: `${scene.site.url}${url}` });
    await agent.listTools();
    return { agent, page: await pageWithUrl(scene.browser, url) };
  };
  const tool = (agent: ScriptedAgent, what: string, matches: (tool: ListedTool) => boolean): ListedTool => {
    const found = agent.tools.find(matches);
    assert.ok(found, `no tool for ${what} in:\n${agent.tools.map((t) => `${t.name}: ${t.description}`).join('\n')}`);
    return found;
  };
  const described = (agent: ScriptedAgent, words: RegExp) =>
    tool(agent, String(words), (candidate) => words.test(candidate.description ?? ''));
  const handleIn = (read: string, pattern: RegExp, what: string): string => {
    const handle = pattern.exec(read)?.[1];
    assert.ok(handle, `no ${what} in:\n${read}`);
    return handle;
  };
  const cost = (task: string, agent: ScriptedAgent) =>
    costs.push(`${task}: ${agent.calls} calls, ${agent.bytesRead} B read`);

  it('Lit TodoMVC: "add Buy milk, Walk the dog and Water plants; tick Walk the dog; delete Water plants; clear completed"', async () => {
    const { agent, page } = await start('/components/lit-todo.html');
    const box = described(agent, /what needs to be done/i);
    for (const title of ['Buy milk', 'Walk the dog', 'Water plants'])
      await agent.call(box.name, { value: title, submit: true });
    await agent.listTools();
    const items = tool(agent, 'the todo list', (candidate) =>
      (candidate.inputSchema.properties?.action?.enum ?? []).includes('check'),
    );
    await agent.call(items.name, { item: 'Walk the dog', action: 'check' });
    // The row's "×" shows only on :hover, by a rule in its shadow root's adoptedStyleSheets.
    const remove = (items.inputSchema.properties?.action?.enum ?? []).find(
      (action): action is string => typeof action === 'string' && /^click "delete"/i.test(action),
    );
    assert.ok(remove, JSON.stringify(items));
    await agent.call(items.name, { item: 'Water plants', action: remove });
    await agent.listTools();
    await agent.call(described(agent, /"Clear completed"/).name);
    const todos = await page.evaluate(() =>
      (
        document.querySelector('todo-app') as unknown as { todos: Array<{ title: string; completed: boolean }> }
      ).todos.map(({ title, completed }) => ({ title, completed })),
    );
    assert.deepEqual(todos, [{ title: 'Buy milk', completed: false }], agent.transcript.join('\n'));
    cost('lit-todo', agent);
  });

  it('Shoelace: "sign me up as Ada Lovelace from Canada, with news, then close the welcome"', async () => {
    const { agent, page } = await start('/components/shoelace.html');
    await agent.call(described(agent, /"Full name"/).name, { value: 'Ada Lovelace' });
    // <sl-select>'s combobox lives in its shadow root, its options are slotted <sl-option role=option>.
    const read = await agent.call('get_page_content');
    const country = handleIn(read, /\[combobox "Country"[^\]]* ([a-z]\d+)\]/, 'the Country combobox');
    await agent.call('act', { handle: country, action: 'select', value: 'Canada' });
    await agent.call(described(agent, /"Send me news"/).name, { checked: true });
    const submitted = await agent.call(described(agent, /"Sign up"/).name);
    assert.match(submitted, /click_done|Done/, "the dialog's button appeared as a tool");
    await agent.listTools();
    await agent.call(described(agent, /"Done"/).name);
    const state = await page.evaluate(() => ({
      signup: JSON.parse(document.body.dataset.signup ?? '{}'),
      country: (document.querySelector('sl-select') as unknown as { value: string }).value,
      news: (document.querySelector('sl-checkbox') as unknown as { checked: boolean }).checked,
      dialogOpen: (document.querySelector('sl-dialog') as unknown as { open: boolean }).open,
    }));
    assert.deepEqual(
      state,
      { signup: { name: 'Ada Lovelace', country: 'ca', news: 'yes' }, country: 'ca', news: true, dialogOpen: false },
      agent.transcript.join('\n'),
    );
    cost('shoelace', agent);
  });

  it('Material Web: "book a train to Japan for Ada Lovelace, window seat"', async () => {
    const { agent, page } = await start('/components/material.html');
    // <md-primary-tab> takes its role from ElementInternals: the roving tabindex of the group gives it a handle.
    let read = await agent.call('get_page_content');
    await agent.call('act', {
      handle: handleIn(read, /\[clickable "Train" ([a-z]\d+)\]/, 'the Train tab'),
      action: 'click',
    });
    await agent.call(described(agent, /"Traveller"/).name, { value: 'Ada Lovelace' });
    read = await agent.call('get_page_content');
    const destination = handleIn(read, /\[combobox "Destination"[^\]]* ([a-z]\d+)\]/, 'the Destination select');
    await agent.call('act', { handle: destination, action: 'select', value: 'Japan' });
    await agent.call(described(agent, /"Window seat"/).name, { checked: true });
    await agent.call(described(agent, /"Book"/).name);
    const state = await page.evaluate(() => ({
      trip: JSON.parse(document.body.dataset.trip ?? '{}'),
      tab: (document.querySelector('md-tabs') as unknown as { activeTabIndex: number }).activeTabIndex,
      destination: (document.querySelector('md-outlined-select') as unknown as { value: string }).value,
    }));
    assert.deepEqual(
      state,
      { trip: { traveller: 'Ada Lovelace', destination: 'jp', window: 'on' }, tab: 1, destination: 'jp' },
      agent.transcript.join('\n'),
    );
    cost('material', agent);
  });

  it('DataTables: "sort by age, oldest first"', async () => {
    const { agent, page } = await start('/components/datatable.html');
    const ages = (read: string) =>
      [...read.matchAll(/^\| [^|]+ \| (\d+) \|/gm)].map((match) => Number(match[1])).filter(Number.isFinite);
    // As a person does: click the column's header until the oldest is on top.
    let read = '';
    for (let clicks = 0; clicks < 3; clicks++) {
      await agent.listTools();
      await agent.call(described(agent, /"Age\b/).name);
      read = await agent.call('get_page_content');
      const shown = ages(read);
      if (shown.length > 0 && shown[0] === Math.max(...shown)) break;
    }
    // The header's aria-sort shows on its sort control in the page read.
    assert.match(read, /\[button "Age[^"]*" \(sorted descending\) [a-z]\d+\]/);
    const order = await page.evaluate(() =>
      (window as unknown as { peopleTable: { order(): Array<[number, string]> } }).peopleTable
        .order()
        .map(([column, direction]) => [column, direction]),
    );
    assert.deepEqual(order, [[1, 'desc']], agent.transcript.join('\n'));
    cost('datatables', agent);
  });

  it('an editable combobox takes typing, and its option is chosen from a list the page filters', async () => {
    const { agent, page } = await start('/components/shoelace.html');
    await page.evaluate(() => {
      // A type-ahead search box, as plain ARIA: the options are filtered as the user types.
      const box = Object.assign(document.createElement('input'), { id: 'city' });
      box.setAttribute('role', 'combobox');
      box.setAttribute('aria-autocomplete', 'list');
      box.setAttribute('aria-controls', 'cities');
      box.setAttribute('aria-label', 'City');
      const list = Object.assign(document.createElement('ul'), { id: 'cities' });
      list.setAttribute('role', 'listbox');
      const cities = ['Toronto', 'Tokyo', 'Oslo'];
      box.addEventListener('input', () => {
        list.replaceChildren(
          ...cities
            .filter((city) => box.value && city.toLowerCase().startsWith(box.value.toLowerCase()))
            .map((city) => {
              const option = Object.assign(document.createElement('li'), { textContent: city });
              option.setAttribute('role', 'option');
              option.addEventListener('click', () => {
                box.value = city;
                document.body.dataset.city = city;
                list.replaceChildren();
              });
              return option;
            }),
        );
      });
      document.body.append(box, list);
    });
    const read = await agent.call('get_page_content');
    const city = handleIn(read, /\[combobox "City"[^\]]* ([a-z]\d+)\]/, 'the City combobox');
    const typed = await agent.call('act', { handle: city, action: 'fill', value: 'To' });
    assert.match(typed, /option \\"Toronto\\"/, 'the filtered options show in the answer');
    await agent.call('act', { handle: city, action: 'select', value: 'Tokyo' });
    assert.equal(await page.evaluate(() => document.body.dataset.city), 'Tokyo');
    const refused = await scene.agent.call('act', { handle: city, action: 'select', value: 'Paris' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /no option "Paris" showed/);
    cost('combobox', agent);
  });
});
