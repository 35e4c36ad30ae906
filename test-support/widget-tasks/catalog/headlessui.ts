import type { WidgetTask } from '../task';

export const headlessUiTasks: WidgetTask[] = [
  {
    id: 'headlessui/assign-tom-cook',
    library: '@headlessui/react',
    path: '/widgets-react/headlessui.html',
    ask: 'assign the issue to Tom Cook',
    steps: [
      // The listbox button is named by its label and then the value it shows ("Assignee Unassigned").
      { act: 'click', target: { role: 'button', name: 'Assignee', starts: true } },
      { act: 'click', target: { role: 'option', name: 'Tom Cook' } },
    ],
    done: "window.assignee() === 'Tom Cook'",
    state: 'window.assignee()',
  },
];
