import type { WidgetTask } from '../task';

export const tanstackTableTasks: WidgetTask[] = [
  {
    id: 'tanstack-table/sort-by-age-oldest-first',
    library: '@tanstack/react-table',
    path: '/widgets-react/tanstack-table.html',
    ask: 'sort by age, oldest first',
    // A number column sorts descending on its first click (TanStack's default for non-text columns).
    steps: [{ act: 'click', target: { role: 'columnheader', name: 'Age' } }],
    done: "window.teamOrder().join() === 'Grace,Margaret,Alan,Ada,Linus'",
    state: 'window.teamOrder()',
  },
];
