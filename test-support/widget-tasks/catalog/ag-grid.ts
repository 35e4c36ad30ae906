import type { WidgetTask } from '../task';

export const agGridTasks: WidgetTask[] = [
  {
    id: 'ag-grid/sort-by-age-oldest-first',
    library: 'ag-grid-community',
    path: '/widgets/ag-grid.html',
    ask: 'sort by age, oldest first',
    // The grid sorts ascending on the first click of a header, descending on the second.
    steps: [
      { act: 'click', target: { role: 'columnheader', name: 'Age' } },
      { act: 'click', target: { role: 'columnheader', name: 'Age' } },
    ],
    done: "window.athletes().sort.join() === 'age desc' && window.athletes().rows[0].startsWith('Olivia Smith')",
    state: 'window.athletes()',
  },
  {
    id: 'ag-grid/filter-to-canada',
    library: 'ag-grid-community',
    path: '/widgets/ag-grid.html',
    ask: 'show only the athletes from Canada',
    steps: [{ act: 'fill', target: { role: 'textbox', name: 'Country Filter Input' }, value: 'Canada' }],
    done: "window.athletes().rows.length === 2 && window.athletes().rows.every((row) => row.includes('Canada'))",
    state: 'window.athletes()',
  },
];
