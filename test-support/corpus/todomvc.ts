import type { CorpusTask } from './kinds';
import pins from './sources.json' with { type: 'json' };

/**
 * Every row of a TodoMVC app as the app shows it: the row checkbox of the spec (`.toggle`) and the
 * label beside it, found through shadow roots (the Lit and Polymer builds keep their rows in one).
 */
const ROWS = `(() => {
  const boxes = [];
  const walk = (root) => {
    for (const node of root.querySelectorAll('*')) {
      if (node.matches('input.toggle')) boxes.push(node);
      if (node.shadowRoot) walk(node.shadowRoot);
    }
  };
  walk(document);
  const rows = boxes.map((box) => ({
    title: (box.parentElement?.querySelector('label')?.textContent ?? '').trim(),
    completed: box.checked,
  }));
  // Some apps list the newest todo first: the order is the app's choice, not the task's.
  return JSON.stringify(rows.sort((a, b) => a.title.localeCompare(b.title)));
})()`;

const EXPECTED = JSON.stringify([
  { title: 'Buy milk', completed: false },
  { title: 'Walk the dog', completed: true },
]);

/** The app's name as TodoMVC lists it: its example folder (`examples/vue/dist` → `vue`). */
const appName = (folder: string) => folder.split('/')[1] ?? folder;

/**
 * One task per TodoMVC app with a committed, runnable build (test-support/corpus/sources.json; held
 * out: javascript-es5, react, typescript-angular, web-components): add two todos, tick the second,
 * judged on the rows the app shows. The steps are those of any todo list, by the box's placeholder
 * (the spec's "What needs to be done?") and the row's text, never by an app's markup.
 */
export const todomvcTasks: CorpusTask[] = pins.todomvc.apps.map((folder) => ({
  id: `todomvc/${appName(folder)}/add-two-tick-one`,
  source: 'todomvc',
  kind: 'todo-list',
  library: `TodoMVC ${appName(folder)}`,
  path: `/${folder}/index.html`,
  ask: 'add "Buy milk" and "Walk the dog", then mark "Walk the dog" done',
  steps: [
    { act: 'fill', target: { name: 'What needs to be done?' }, value: 'Buy milk', submit: true },
    { act: 'fill', target: { name: 'What needs to be done?' }, value: 'Walk the dog', submit: true },
    { act: 'click', target: { role: 'checkbox', in: 'Walk the dog' } },
  ],
  done: `${ROWS} === ${JSON.stringify(EXPECTED)}`,
  state: ROWS,
}));
