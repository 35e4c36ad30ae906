import type { WidgetTask } from '../task';

export const radixSelectTasks: WidgetTask[] = [
  {
    id: 'radix-select/pick-canada',
    library: '@radix-ui/react-select',
    path: '/widgets-react/radix-select.html',
    ask: 'pick Canada',
    steps: [
      { act: 'click', target: { role: 'combobox', name: 'Country' } },
      { act: 'click', target: { role: 'option', name: 'Canada' } },
    ],
    done: "window.countryPicked() === 'CA'",
    state: 'window.countryPicked()',
  },
];
