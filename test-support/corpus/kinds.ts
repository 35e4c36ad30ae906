import type { Step, Target, WidgetTask } from '../widget-tasks/task';

/**
 * The corpus of issue 37: tasks on apps nobody here wrote, in the widget gauntlet's task language
 * (test-support/widget-tasks/task.ts), so that the same runners drive tabmcp, Playwright MCP and
 * chrome-devtools-mcp through them, finding each element by role and accessible name as a model
 * does. A task kind below is one function that makes the task for any page of that kind; the
 * catalogs (todomvc.ts, aria-practices.ts, npm-libraries.ts) only name the pages and their words.
 */
export type CorpusSource = 'todomvc' | 'aria-practices' | 'npm';

export interface CorpusTask extends WidgetTask {
  source: CorpusSource;
  /** The task's kind (`todo-list`, `tab`, `slider` …): the e2e subset takes one task per kind and pattern. */
  kind: string;
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * A page expression: the first element matching `selector` whose name as a person reads it (its
 * aria-label, else its text, spaces squashed) is `name`; a name ending in `…` matches its beginning.
 */
export function element(selector: string, name: string): string {
  const starts = name.endsWith('…');
  const wanted = starts ? name.slice(0, -1) : name;
  return `[...document.querySelectorAll(${json(selector)})].find((e) => { const n = (e.getAttribute('aria-label') || e.textContent || '').replace(/\\s+/g, ' ').trim(); return ${starts ? `n.startsWith(${json(wanted)})` : `n === ${json(wanted)}`}; })`;
}

/** A page expression: `attribute` of that element (undefined when there is none). */
export const attributeOf = (selector: string, name: string, attribute: string) =>
  `(${element(selector, name)})?.getAttribute(${json(attribute)})`;

interface Page {
  /** `<source>/<page>/<task>`. */
  id: string;
  source: CorpusSource;
  path: string;
  library: string;
}

const task = (page: Page, kind: string, ask: string, steps: Step[], done: string, state: string): CorpusTask => ({
  ...page,
  kind,
  ask,
  steps,
  done,
  state,
});

/** Opens a disclosure, accordion section or menu button: its `aria-expanded` turns true. */
export function expand(page: Page, target: Target, selector: string, name: string): CorpusTask {
  const expanded = attributeOf(selector, name, 'aria-expanded');
  return task(
    page,
    'disclosure',
    `open "${target.name}"`,
    [{ act: 'click', target }],
    `${expanded} === 'true'`,
    expanded,
  );
}

/** Ticks a checkbox, switch or radio (native or ARIA): checked, or aria-checked/aria-pressed true. */
export function check(page: Page, target: Target, selector: string, name: string, kind = 'checkbox'): CorpusTask {
  const found = element(selector, name);
  const state = `(() => { const e = ${found}; const box = e?.matches('label') ? e.querySelector('input') : e; return box && (box.matches('input') ? box.checked : box.getAttribute('aria-checked') ?? box.getAttribute('aria-pressed')); })()`;
  return task(
    page,
    kind,
    `turn on "${target.name}"`,
    [{ act: 'click', target }],
    `[true, 'true'].includes(${state})`,
    state,
  );
}

/** Selects a tab: its `aria-selected` turns true. */
export function selectTab(page: Page, name: string): CorpusTask {
  const selected = attributeOf('[role=tab]', name, 'aria-selected');
  return task(
    page,
    'tab',
    `show the "${name}" tab`,
    [{ act: 'click', target: { role: 'tab', name } }],
    `${selected} === 'true'`,
    selected,
  );
}

/** Picks an option of a listbox shown on the page: its `aria-selected` turns true. */
export function pickOption(page: Page, name: string, selector = '[role=option]'): CorpusTask {
  const selected = attributeOf(selector, name, 'aria-selected');
  return task(
    page,
    'listbox',
    `choose "${name}"`,
    [{ act: 'click', target: { role: 'option', name } }],
    `${selected} === 'true'`,
    selected,
  );
}

/** Moves a slider with the keys a person uses on one (Home, End, arrows): its `aria-valuenow` becomes `value`. */
export function moveSlider(page: Page, name: string, keys: string[], value: number, selector: string): CorpusTask {
  const now = `Number(document.querySelector(${json(selector)})?.getAttribute('aria-valuenow'))`;
  return task(
    page,
    'slider',
    `set "${name}" to ${value}`,
    keys.map((key) => ({ act: 'press', target: { role: 'slider', name }, key })),
    `${now} === ${value}`,
    now,
  );
}

/** Any other task: its steps, and the page expression that is true once it is done. */
export function custom(page: Page, kind: string, ask: string, steps: Step[], done: string, state: string): CorpusTask {
  return task(page, kind, ask, steps, done, state);
}
