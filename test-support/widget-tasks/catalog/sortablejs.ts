import type { WidgetTask } from '../task';

export const sortableTasks: WidgetTask[] = [
  {
    id: 'sortablejs/move-pay-rent-to-done',
    library: 'sortablejs',
    path: '/gauntlet/kanban.html',
    ask: "move 'Pay rent' to Done",
    steps: [
      {
        act: 'drag',
        target: { name: 'Pay rent' },
        to: { name: 'File taxes' },
      },
    ],
    done: "window.board().done.includes('rent') && !window.board().todo.includes('rent')",
    state: 'window.board()',
  },
];
