import type { WidgetTask } from '../task';

/** Plain markup that needs the browser's own input: a :hover rule, a timed double-click, a file field. */
export const plainHtmlTasks: WidgetTask[] = [
  {
    id: 'html/hover-then-remove-call-mom',
    library: '(plain HTML)',
    path: '/gauntlet/pointer.html',
    ask: "remove the chore 'Call mom' (its Remove button shows on hover)",
    steps: [
      { act: 'hover', target: { name: 'Call mom' } },
      { act: 'click', target: { role: 'button', name: 'Remove', in: 'Call mom' } },
    ],
    done: 'JSON.stringify(window.chores.removed) === \'["mom"]\'',
    state: 'window.chores',
  },
  {
    id: 'html/double-click-to-edit',
    library: '(plain HTML)',
    path: '/gauntlet/pointer.html',
    ask: "double-click 'Water plants' to edit it",
    steps: [{ act: 'dblclick', target: { name: 'Water plants' } }],
    done: "window.chores.editing === 'Water plants'",
    state: 'window.chores',
  },
  {
    id: 'html/upload-report',
    library: '(plain HTML)',
    path: '/gauntlet/pointer.html',
    ask: 'upload report.pdf',
    steps: [{ act: 'upload', target: { name: 'Attach a report' }, file: 'report.pdf' }],
    done: "window.chores.attached?.name === 'report.pdf' && window.chores.attached.size === 25",
    state: 'window.chores',
  },
  {
    id: 'aria/type-ahead-city',
    library: '(plain ARIA combobox)',
    path: '/gauntlet/city.html',
    ask: 'set the city to Tokyo',
    steps: [
      { act: 'fill', target: { role: 'combobox', name: 'City' }, value: 'To' },
      { act: 'click', target: { role: 'option', name: 'Tokyo' } },
    ],
    done: "document.body.dataset.city === 'Tokyo'",
    state: 'document.body.dataset.city',
  },
];
