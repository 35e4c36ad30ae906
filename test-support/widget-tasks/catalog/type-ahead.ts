import type { WidgetTask } from '../task';

/**
 * "pick Canada" in a type-ahead box labelled "Country", as a person does it: type the start of the
 * name, click the option. Every country page exposes the picked code as `window.countryPicked()`.
 */
export function pickCanadaByTyping(id: string, library: string, path: string): WidgetTask {
  return {
    id,
    library,
    path,
    ask: 'pick Canada',
    steps: [
      { act: 'fill', target: { role: 'combobox', name: 'Country' }, value: 'Cana' },
      { act: 'click', target: { role: 'option', name: 'Canada' } },
    ],
    done: "window.countryPicked() === 'CA'",
    state: 'window.countryPicked()',
  };
}
