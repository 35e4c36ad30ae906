import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StdioMcp } from './stdio-client';

/**
 * A scripted agent for the fixture apps of issue 10 (examples/apps, examples/dom-patterns). It
 * counts what an agent pays: calls, and the bytes it reads (every tool list it fetches and every
 * result). On tabmcp it picks tools by their names, descriptions and schemas, never by a name
 * known in advance; on the other servers it uses their documented snapshot-and-ref tools.
 */
export class ScriptedAgent {
  calls = 0;
  toolListBytes = 0;
  resultBytes = 0;
  readonly transcript: string[] = [];
  tools: ListedTool[] = [];

  constructor(private readonly mcp: StdioMcp) {}

  async listTools(): Promise<ListedTool[]> {
    const { tools } = await this.mcp.client.listTools();
    this.toolListBytes += Buffer.byteLength(JSON.stringify(tools));
    this.tools = tools as ListedTool[];
    return this.tools;
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    this.calls += 1;
    const result = (await this.mcp.client.callTool({ name, arguments: args }, undefined, {
      timeout: 60_000,
    })) as CallToolResult;
    const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
    this.resultBytes += Buffer.byteLength(text);
    this.transcript.push(`→ ${name} ${JSON.stringify(args)}\n${text}`);
    if (result.isError) throw new Error(`${name} failed: ${text.slice(0, 500)}`);
    return text;
  }

  get bytesRead(): number {
    return this.toolListBytes + this.resultBytes;
  }
}

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, { enum?: unknown[]; type?: unknown }> };
}

function must<T>(value: T | undefined | null, what: string, seen: string): T {
  if (value === undefined || value === null)
    throw new Error(`the agent could not find ${what} in:\n${seen.slice(0, 3000)}`);
  return value;
}

/** The tool whose description or name says it does `purpose`, as an agent reads the list. */
function toolFor(agent: ScriptedAgent, what: string, matches: (tool: ListedTool) => boolean): ListedTool {
  return must(
    agent.tools.find(matches),
    what,
    agent.tools.map((tool) => `${tool.name}: ${tool.description}`).join('\n'),
  );
}

const enumOf = (tool: ListedTool, property: string) =>
  (tool.inputSchema.properties?.[property]?.enum ?? []).filter((value): value is string => typeof value === 'string');

/** The task every contender runs on a page. */
export interface RealAppTask {
  key: string;
  label: string;
  /** Path of the fixture page on the example server. */
  path: string;
  /** Reads the page's own state over CDP; the task succeeded when it equals `expected`. */
  stateScript: string;
  expected: string;
}

const TODO_STATE = JSON.stringify([
  { title: 'Buy milk', completed: false },
  { title: 'Walk the dog', completed: true },
]);

export const TASKS: RealAppTask[] = [
  {
    key: 'react-todo',
    label: 'React todos: add three, tick one, delete one (hover-only button)',
    path: '/apps/react-todo.html',
    stateScript: "document.querySelector('.todoapp').dataset.todos",
    expected: TODO_STATE,
  },
  {
    key: 'vue-todo',
    label: 'Vue todos (box in a form without a submit button): the same',
    path: '/apps/vue-todo.html',
    stateScript: "document.querySelector('.todoapp').dataset.todos",
    expected: TODO_STATE,
  },
  {
    key: 'svelte-todo',
    label: 'Svelte 5 todos (bind:value in a form, a Delete button with only an aria-label): the same',
    path: '/apps/svelte-todo.html',
    stateScript: "document.querySelector('.todoapp').dataset.todos",
    expected: TODO_STATE,
  },
  {
    key: 'angular-todo',
    label: 'Angular 22 todos (zoneless, ngModel, keyup.enter): the same',
    path: '/apps/angular-todo.html',
    stateScript: "document.querySelector('.todoapp').dataset.todos",
    expected: TODO_STATE,
  },
  {
    key: 'settings',
    label: 'Settings panel: language, theme, switch, contenteditable status',
    path: '/dom-patterns/controls.html',
    stateScript: 'document.body.dataset.state',
    expected: JSON.stringify({ language: 'de', theme: 'dark', sounds: true, status: 'Gone fishing' }),
  },
  {
    key: 'results',
    label: 'Search results with repeated titles: put the Kiln House blue mug in the basket',
    path: '/dom-patterns/results.html',
    stateScript: 'document.body.dataset.basket',
    expected: 'a3',
  },
];

export type TaskScript = (agent: ScriptedAgent, url: string, task: RealAppTask) => Promise<void>;

/** tabmcp: derived tools, chosen by what their descriptions and schemas say. */
export const tabmcpScript: TaskScript = async (agent, url, task) => {
  // The state machine offers connect_browser only while no browser is connected.
  if ((await agent.listTools()).some((tool) => tool.name === 'connect_browser'))
    await agent.call('connect_browser', {});
  await agent.call('open_tab', { url });
  // open_tab answered with a tools/list_changed: the agent reads the list again.
  await agent.listTools();
  if (task.key.endsWith('-todo')) {
    const box = toolFor(agent, 'the new-todo field', (tool) => /what needs to be done/i.test(tool.description ?? ''));
    for (const title of ['Buy milk', 'Walk the dog', 'Water plants'])
      await agent.call(box.name, { value: title, submit: true });
    // The first todo made a collection tool appear (its result said so): read the list again.
    await agent.listTools();
    const items = toolFor(agent, 'the todo list tool', (tool) => enumOf(tool, 'action').includes('check'));
    await agent.call(items.name, { item: 'Walk the dog', action: 'check' });
    const remove = must(
      enumOf(items, 'action').find((action) => /^click "(delete|×|remove)"/i.test(action)),
      'a delete action',
      JSON.stringify(items),
    );
    await agent.call(items.name, { item: 'Water plants', action: remove });
  } else if (task.key === 'settings') {
    const byTitle = (words: RegExp) => toolFor(agent, String(words), (tool) => words.test(tool.description ?? ''));
    await agent.call(byTitle(/"Language"/).name, { value: 'Deutsch' });
    await agent.call(byTitle(/"Theme"/).name, { value: 'Dark' });
    await agent.call(byTitle(/switch "Sounds"/).name, { checked: true });
    await agent.call(byTitle(/"Status message"/).name, { value: 'Gone fishing' });
  } else {
    const results = toolFor(
      agent,
      'the results list',
      (tool) => tool.name.endsWith('_item') && enumOf(tool, 'action').some((action) => /basket/i.test(action)),
    );
    const add = must(
      enumOf(results, 'action').find((action) => /add to basket/i.test(action)),
      'the add action',
      JSON.stringify(results),
    );
    // Two results are called "Blue mug": the agent names the one it wants as the task does.
    await agent.call(results.name, { item: 'Kiln House blue mug', action: add });
  }
};

const ref = (snapshot: string, pattern: RegExp, what: string) => must(pattern.exec(snapshot)?.[1], what, snapshot);

/** Playwright MCP: navigate, snapshot, then type and click by the snapshot's refs. */
export const playwrightScript: TaskScript = async (agent, url, task) => {
  await agent.listTools();
  await agent.call('browser_navigate', { url });
  let page = await agent.call('browser_snapshot', {});
  const refOf = (pattern: RegExp, what: string) => ref(page, pattern, what);
  if (task.key.endsWith('-todo')) {
    const box = refOf(/textbox "What needs to be done\?"[^\n]*\[ref=(\w+)\]/, 'the new-todo box');
    for (const title of ['Buy milk', 'Walk the dog', 'Water plants'])
      await agent.call('browser_type', { element: 'new todo box', target: box, text: title, submit: true });
    page = await agent.call('browser_snapshot', {});
    const walk = refOf(
      /listitem[^\n]*\n\s*- checkbox[^\n]*\[ref=(\w+)\][^\n]*\n\s*- (?:generic|text)[^\n]*Walk the dog/,
      'the Walk the dog checkbox',
    );
    await agent.call('browser_click', { element: 'Walk the dog checkbox', target: walk });
    // The delete button shows on hover only: hover the row, then find the button.
    page = await agent.call('browser_snapshot', {});
    const row = refOf(
      /listitem \[ref=(\w+)\][^\n]*\n(?:\s+-[^\n]*\n){0,2}?\s+- [^\n]*Water plants/,
      'the Water plants row',
    );
    page = await agent.call('browser_hover', { element: 'Water plants row', target: row });
    if (!/button "Delete"/.test(page)) page = await agent.call('browser_snapshot', {});
    const remove = refOf(/Water plants[^\n]*\n\s*- button "Delete" \[ref=(\w+)\]/, 'the Delete button of Water plants');
    await agent.call('browser_click', { element: 'Delete button', target: remove });
  } else if (task.key === 'settings') {
    await agent.call('browser_select_option', {
      element: 'Language',
      target: refOf(/combobox "Language"[^\n]*\[ref=(\w+)\]/, 'the language list'),
      values: ['Deutsch'],
    });
    await agent.call('browser_click', { element: 'Dark', target: refOf(/radio "Dark"[^\n]*\[ref=(\w+)\]/, 'Dark') });
    await agent.call('browser_click', {
      element: 'Sounds',
      target: refOf(/switch "Sounds"[^\n]*\[ref=(\w+)\]/, 'Sounds'),
    });
    await agent.call('browser_type', {
      element: 'Status message',
      target: refOf(/(?:textbox|generic) "Status message" \[ref=(\w+)\]/, 'the status field'),
      text: 'Gone fishing',
    });
  } else {
    const button = refOf(
      /heading "Blue mug"[^\n]*\n\s*- paragraph[^\n]*Kiln House[^\n]*\n\s*- button "Add to basket" \[ref=(\w+)\]/,
      'the Kiln House mug',
    );
    await agent.call('browser_click', { element: 'Add to basket of the Kiln House Blue mug', target: button });
  }
};

/** chrome-devtools-mcp: the same with its snapshot uids; every page tool takes the page id. */
export const devtoolsScript: TaskScript = async (agent, url, task) => {
  await agent.listTools();
  const pages = await agent.call('list_pages', {});
  const pageId = Number(must(/(\d+):[^\n]*\[selected\]/.exec(pages)?.[1], 'the selected page id', pages));
  await agent.call('navigate_page', { pageId, type: 'url', url });
  let page = await agent.call('take_snapshot', { pageId });
  const uidOf = (pattern: RegExp, what: string) => ref(page, pattern, what);
  if (task.key.endsWith('-todo')) {
    const box = uidOf(/uid=(\S+) textbox "What needs to be done\?"/, 'the new-todo box');
    for (const title of ['Buy milk', 'Walk the dog', 'Water plants']) {
      await agent.call('fill', { pageId, uid: box, value: title });
      await agent.call('press_key', { pageId, key: 'Enter' });
    }
    page = await agent.call('take_snapshot', { pageId });
    await agent.call('click', {
      pageId,
      uid: uidOf(/uid=(\S+) checkbox[^\n]*\n\s*uid=\S+ "Walk the dog"/, 'the Walk the dog checkbox'),
    });
    page = await agent.call('take_snapshot', { pageId });
    // The snapshot has no list items, only the row's text: hover it to show its Delete button.
    const row = uidOf(/uid=(\S+) "Water plants"/, 'the Water plants row');
    page = await agent.call('hover', { pageId, uid: row, includeSnapshot: true });
    const remove = uidOf(/"Water plants"\n\s*uid=(\S+) button "Delete"/, 'the Delete button');
    await agent.call('click', { pageId, uid: remove });
  } else if (task.key === 'settings') {
    await agent.call('fill', {
      pageId,
      uid: uidOf(/uid=(\S+) combobox "Language"/, 'the language list'),
      value: 'Deutsch',
    });
    await agent.call('click', { pageId, uid: uidOf(/uid=(\S+) radio "Dark"/, 'Dark') });
    await agent.call('click', { pageId, uid: uidOf(/uid=(\S+) switch "Sounds"/, 'Sounds') });
    await agent.call('fill', {
      pageId,
      uid: uidOf(/uid=(\S+) (?:textbox|generic) "Status message"/, 'the status field'),
      value: 'Gone fishing',
    });
  } else {
    const button = uidOf(
      /heading "Blue mug"[^\n]*\n\s+uid=\S+ "Kiln House[^\n]*\n\s+uid=(\S+) button "Add to basket"/,
      'the Kiln House mug',
    );
    await agent.call('click', { pageId, uid: button });
  }
};
