import type { WidgetTask } from '../task';

export const flatpickrTasks: WidgetTask[] = [
  {
    id: 'flatpickr/set-12-march-2027',
    library: 'flatpickr',
    path: '/widgets/flatpickr.html',
    ask: 'set the departure date to 12 March 2027',
    // The field is read-only: the calendar it opens is the way in, as for a person.
    steps: [
      { act: 'click', target: { role: 'textbox', name: 'Departure date' } },
      { act: 'select', target: { role: 'combobox', name: 'Month' }, value: 'March' },
      { act: 'fill', target: { name: 'Year' }, value: '2027', submit: true },
      { act: 'click', target: { name: 'March 12, 2027' } },
    ],
    done: 'JSON.stringify(window.departure()) === \'["2027-03-12"]\'',
    state: 'window.departure()',
  },
];
