import type { WidgetTask } from '../task';

export const downshiftTasks: WidgetTask[] = [
  {
    id: 'downshift/pick-canada',
    library: 'downshift',
    path: '/widgets-react/downshift.html',
    ask: 'pick Canada',
    steps: [
      { act: 'fill', target: { role: 'combobox', name: 'Country' }, value: 'Cana' },
      { act: 'click', target: { role: 'option', name: 'Canada' } },
    ],
    done: "window.countryPicked() === 'CA'",
    state: 'window.countryPicked()',
  },
];
