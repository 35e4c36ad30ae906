import type { WidgetTask } from '../task';

/** Web-component libraries (shadow DOM, slotted options, ElementInternals roles) and DataTables. */
export const webComponentTasks: WidgetTask[] = [
  {
    id: 'lit/todomvc',
    library: 'lit',
    path: '/components/lit-todo.html',
    ask: 'add Buy milk, Walk the dog and Water plants; tick Walk the dog; delete Water plants; clear completed',
    steps: [
      ...['Buy milk', 'Walk the dog', 'Water plants'].map((value) => ({
        act: 'fill' as const,
        target: { role: 'textbox', name: 'What needs to be done?' },
        value,
        submit: true,
      })),
      { act: 'click', target: { role: 'checkbox', in: 'Walk the dog' } },
      // The row's Delete shows only on :host(:hover), a rule in its shadow root's adoptedStyleSheets.
      { act: 'hover', target: { name: 'Water plants' } },
      { act: 'click', target: { role: 'button', name: 'Delete', in: 'Water plants' } },
      { act: 'click', target: { role: 'button', name: 'Clear completed' } },
    ],
    done: `JSON.stringify(document.querySelector('todo-app').todos.map(({ title, completed }) => ({ title, completed }))) === '[{"title":"Buy milk","completed":false}]'`,
    state: 'document.querySelector("todo-app").todos',
  },
  {
    id: 'shoelace/sign-up',
    library: '@shoelace-style/shoelace',
    path: '/components/shoelace.html',
    ask: 'sign me up as Ada Lovelace from Canada, with news, then close the welcome',
    steps: [
      { act: 'fill', target: { role: 'textbox', name: 'Full name', starts: true }, value: 'Ada Lovelace' },
      { act: 'select', target: { role: 'combobox', name: 'Country' }, value: 'Canada' },
      { act: 'click', target: { role: 'checkbox', name: 'Send me news' } },
      { act: 'click', target: { role: 'button', name: 'Sign up' } },
      { act: 'click', target: { role: 'button', name: 'Done' } },
    ],
    done: `(() => { const signup = JSON.parse(document.body.dataset.signup ?? '{}'); return signup.name === 'Ada Lovelace' && signup.country === 'ca' && signup.news === 'yes' && document.querySelector('sl-dialog').open === false; })()`,
    state: '({ signup: document.body.dataset.signup, dialogOpen: document.querySelector("sl-dialog").open })',
  },
  {
    id: 'material-web/book-train',
    library: '@material/web',
    path: '/components/material.html',
    ask: 'book a train to Japan for Ada Lovelace, window seat',
    steps: [
      { act: 'click', target: { role: 'tab', name: 'Train' } },
      { act: 'fill', target: { role: 'textbox', name: 'Traveller' }, value: 'Ada Lovelace' },
      { act: 'select', target: { role: 'combobox', name: 'Destination' }, value: 'Japan' },
      { act: 'click', target: { role: 'switch', name: 'Window seat' } },
      { act: 'click', target: { role: 'button', name: 'Book' } },
    ],
    done: `document.body.dataset.trip === '{"traveller":"Ada Lovelace","destination":"jp","window":"on"}' && document.querySelector('md-tabs').activeTabIndex === 1`,
    state: '({ trip: document.body.dataset.trip, tab: document.querySelector("md-tabs").activeTabIndex })',
  },
  {
    id: 'datatables/sort-by-age-oldest-first',
    library: 'datatables.net',
    path: '/components/datatable.html',
    ask: 'sort by age, oldest first',
    // As a person does: the column's header once sorts up, twice down.
    steps: [
      { act: 'click', target: { name: 'Age', starts: true } },
      { act: 'click', target: { name: 'Age', starts: true } },
    ],
    done: `JSON.stringify(window.peopleTable.order().map(([column, direction]) => [column, direction])) === '[[1,"desc"]]'`,
    state: 'window.peopleTable.order()',
  },
];
