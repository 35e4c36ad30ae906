import type { WidgetTask } from '../task';

export const tomSelectTasks: WidgetTask[] = [
  {
    id: 'tom-select/pick-canada',
    library: 'tom-select',
    path: '/gauntlet/country.html',
    ask: 'pick Canada',
    steps: [
      { act: 'fill', target: { role: 'combobox', name: 'Country' }, value: 'Cana' },
      { act: 'click', target: { role: 'option', name: 'Canada' } },
    ],
    done: "window.countryPicked() === 'CA'",
    state: 'window.countryPicked()',
  },
];
