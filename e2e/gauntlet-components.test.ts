import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { buildComponentFixtures } from '../examples/components/build';
import { textOf } from '../test-support/harness';
import { type ListedTool, ScriptedAgent } from '../test-support/real-app-agent';
import { type LaunchedScene, pageWithUrl, startLaunchedScene } from '../test-support/server-harness';

/**
 * Issue 23, the page model: what tabmcp shows beyond a task's outcome, on fixtures built from real
 * component libraries (glue only, in examples/components). The tasks themselves (Lit TodoMVC,
 * Shoelace, Material Web, DataTables, the type-ahead city box) are in the catalog and run in
 * e2e/gauntlet-tasks.test.ts; here, the sort state a page read shows on a header and what an
 * editable combobox's answers say. Outcomes are read from the page, never from a tool's answer.
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
