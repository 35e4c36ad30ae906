import type { WidgetTask } from '../task';

export const reactDatepickerTasks: WidgetTask[] = [
  {
    id: 'react-datepicker/type-12-march-2027',
    library: 'react-datepicker',
    path: '/widgets-react/react-datepicker.html',
    ask: 'set the date to 12 March 2027',
    steps: [{ act: 'fill', target: { role: 'textbox', name: 'Departure date' }, value: '12 March 2027' }],
    done: "window.departure() === '2027-03-12'",
    state: 'window.departure()',
  },
  {
    id: 'react-datepicker/calendar-12-march-2027',
    library: 'react-datepicker',
    path: '/widgets-react/react-datepicker-calendar.html',
    ask: 'set the date to 12 March 2027 (in the calendar)',
    steps: [
      { act: 'click', target: { role: 'textbox', name: 'Departure date' } },
      // The calendar's days are grid cells named as a screen reader reads them.
      { act: 'click', target: { role: 'gridcell', name: 'Choose Friday, March 12th, 2027' } },
    ],
    done: "window.departure() === '2027-03-12'",
    state: 'window.departure()',
  },
];
