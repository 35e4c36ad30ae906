import type { WidgetTask } from '../task';

export const jqueryUiTasks: WidgetTask[] = [
  {
    id: 'jquery-ui/move-pay-rent-to-done',
    library: 'jquery-ui',
    path: '/widgets/jquery-ui.html',
    ask: "move 'Pay rent' to Done",
    // Sortable's items have no role and no tabindex: only their `cursor: move` says they can be dragged.
    steps: [{ act: 'drag', target: { name: 'Pay rent' }, to: { name: 'File taxes' } }],
    done: "window.chores().done.includes('rent') && !window.chores().todo.includes('rent')",
    state: 'window.chores()',
  },
  {
    id: 'jquery-ui/destination-canada',
    library: 'jquery-ui',
    path: '/widgets/jquery-ui.html',
    ask: 'set the destination to Canada, from the suggestions',
    steps: [
      { act: 'fill', target: { role: 'textbox', name: 'Destination' }, value: 'Can' },
      { act: 'click', target: { name: 'Canada' } },
    ],
    done: "window.destination() === 'Canada'",
    state: 'window.destination()',
  },
];
