import type { WidgetTask } from '../task';

export const reactSelectTasks: WidgetTask[] = [
  {
    id: 'react-select/pick-canada',
    library: 'react-select',
    path: '/widgets-react/react-select.html',
    ask: 'pick Canada',
    steps: [
      { act: 'fill', target: { role: 'combobox', name: 'Country' }, value: 'Cana' },
      { act: 'click', target: { role: 'option', name: 'Canada' } },
    ],
    done: "window.countryPicked() === 'CA'",
    state: 'window.countryPicked()',
  },
];
