import TomSelect from 'tom-select';

// Glue only: a Tom Select type-ahead over a <select> of countries, as a checkout form sets it up.
// The keys its search box saw are kept, to tell typing apart from a value set at once.
const picker = new TomSelect('#country', { maxOptions: 50 });
const keys: string[] = [];
picker.control_input.addEventListener('keydown', (event) => keys.push(event.key));
Object.assign(window, { countryPicked: () => picker.getValue(), countryKeys: () => keys.join('') });
