import { type CorpusTask, custom } from './kinds';

/**
 * The npm-installed part of the corpus (issue 37): component libraries the gauntlet lacks, at exact
 * versions (package.json), each on a page of glue code in examples/corpus-libs that puts the app's
 * state on `window.corpusState`. This part runs everywhere (CI included): npm brings it.
 * Held out by issue 37 and never used: antd, element-plus, @tanstack/react-virtual, CodeMirror 6.
 */
const page = (library: string, file: string, name: string) => ({
  id: `npm/${file}/${name}`,
  source: 'npm' as const,
  library,
  path: `/corpus-libs/${file}.html`,
});

const state = (name: string) => `window.corpusState?.[${JSON.stringify(name)}]`;

export const npmLibraryTasks: CorpusTask[] = [
  custom(
    page('naive-ui', 'naive-ui', 'country-canada'),
    'combobox',
    'choose Canada as the country',
    // naive-ui's select is a box of text with no role: a person clicks what it shows.
    [{ act: 'select', target: { name: 'Choose a country' }, value: 'Canada' }],
    `${state('country')} === 'Canada'`,
    state('country'),
  ),
  custom(
    page('@angular/material', 'angular-material', 'food-tacos'),
    'combobox',
    'choose Tacos as the favorite food',
    [{ act: 'select', target: { role: 'combobox', name: 'Favorite food' }, value: 'Tacos' }],
    `${state('food')} === 'Tacos'`,
    state('food'),
  ),
  custom(
    page('bits-ui', 'bits-ui', 'theme-solarized'),
    'combobox',
    'switch the theme to Solarized',
    [{ act: 'select', target: { role: 'combobox', name: 'Theme' }, value: 'Solarized' }],
    `${state('theme')} === 'Solarized'`,
    state('theme'),
  ),
  custom(
    page('react-virtuoso', 'react-virtuoso', 'open-last-order'),
    'virtual-list',
    'open the last order, #10000 (a list of 10,000 that renders only the rows in view)',
    [
      {
        act: 'reveal',
        target: { role: 'button', name: 'Open order #10000' },
        within: { name: 'Order #1' },
        key: 'End',
        presses: 3,
      },
      { act: 'click', target: { role: 'button', name: 'Open order #10000' } },
    ],
    `${state('opened')} === 10000`,
    state('opened'),
  ),
  custom(
    page('ace-builds', 'ace', 'type-note'),
    'editor',
    'write "Call Ada at 5" in the notes editor (after its first line or in its place)',
    [{ act: 'fill', target: { role: 'textbox', name: 'Notes', starts: true }, value: 'Call Ada at 5' }],
    `(${state('text')}?.match(/Call Ada at 5/g) ?? []).length === 1`,
    state('text'),
  ),
  custom(
    page('@hello-pangea/dnd', 'hello-pangea-dnd', 'write-tests-done'),
    'drag-and-drop',
    'move "Write tests" to Done',
    [{ act: 'drag', target: { name: 'Write tests' }, to: { name: 'Set up CI' } }],
    `${state('columns')}?.Done?.includes('Write tests') === true`,
    `JSON.stringify(${state('columns')})`,
  ),
  // Stop 39: Lexical, an editor framework (a contenteditable it reconciles itself, input through beforeinput).
  custom(
    page('lexical', 'lexical', 'write-line'),
    'editor',
    'write "Call Ada at 5" in the notes (in place of what they say)',
    [{ act: 'fill', target: { role: 'textbox', name: 'Notes' }, value: 'Call Ada at 5' }],
    `${state('text')} === 'Call Ada at 5'`,
    state('text'),
  ),
  custom(
    page('lexical', 'lexical', 'multi-line'),
    'editor',
    'replace the notes with three lines: "Shopping:", "Eggs", "Bread"',
    [{ act: 'fill', target: { role: 'textbox', name: 'Notes' }, value: 'Shopping:\nEggs\nBread' }],
    `${state('text')} === 'Shopping:\\nEggs\\nBread'`,
    state('text'),
  ),
  // Stop 39: Tabulator, a data table with tree rows (opened by an unnamed toggle), sortable headers, an editable column.
  custom(
    page('tabulator-tables', 'tabulator', 'expand-select-ada'),
    'treegrid',
    "open the Engineering group and select Ada Lovelace's row",
    [
      // The toggle has no role nor name (a focusable box drawing "+"): tabmcp writes such a box `clickable`.
      { act: 'click', target: { role: 'clickable', in: 'Engineering' } },
      { act: 'click', target: { role: 'row', in: 'Ada Lovelace' } },
    ],
    `${state('selected')}?.includes('Ada Lovelace') === true`,
    `JSON.stringify([${state('expanded')}, ${state('selected')}])`,
  ),
  custom(
    page('tabulator-tables', 'tabulator', 'sort-age'),
    'grid',
    'sort the staff by age',
    [{ act: 'click', target: { role: 'columnheader', name: 'Age' } }],
    `${state('sortedBy')}?.[0]?.startsWith('age ') === true`,
    `JSON.stringify(${state('sortedBy')})`,
  ),
  custom(
    page('tabulator-tables', 'tabulator', 'edit-bob-age'),
    'grid',
    "change Bob Smith's age to 42",
    [
      { act: 'click', target: { name: '29', in: 'Bob Smith' } },
      { act: 'fill', target: { role: 'spinbutton' }, value: '42', submit: true },
    ],
    `${state('ages')}?.['Bob Smith'] === 42`,
    `JSON.stringify(${state('ages')})`,
  ),
  // Vuetify (Vue 3, Material Design): a booking form's select, switch, date picker and dialog.
  custom(
    page('vuetify', 'vuetify', 'country-canada'),
    'combobox',
    'choose Canada as the country',
    [{ act: 'select', target: { role: 'combobox', name: 'Country' }, value: 'Canada' }],
    // Chosen as a person chooses: the menu closed behind the choice, not left open over the form.
    `${state('country')} === 'Canada' && document.querySelector('[role=listbox]') === null`,
    `JSON.stringify({ country: ${state('country')}, menuOpen: document.querySelector('[role=listbox]') !== null })`,
  ),
  custom(
    page('vuetify', 'vuetify', 'travel-insurance'),
    'switch',
    'turn on travel insurance',
    [{ act: 'click', target: { role: 'checkbox', name: 'Travel insurance' } }],
    `${state('insured')} === true`,
    state('insured'),
  ),
  custom(
    page('vuetify', 'vuetify', 'departure-july-3'),
    'date-picker',
    'set the departure date to Friday, July 3, 2026 (the picker shows June 2026)',
    [
      { act: 'click', target: { role: 'button', name: 'Next month' } },
      { act: 'click', target: { role: 'button', name: 'Friday, July 3, 2026' } },
    ],
    `${state('departure')} === '2026-7-3'`,
    state('departure'),
  ),
  custom(
    page('vuetify', 'vuetify', 'cancel-booking'),
    'dialog',
    'cancel the booking (and confirm it)',
    [
      { act: 'click', target: { role: 'button', name: 'Cancel booking' } },
      { act: 'click', target: { role: 'button', name: 'Yes, cancel' } },
    ],
    `${state('cancelled')} === true`,
    state('cancelled'),
  ),
  // react-window 2 (a virtualized List: rows absolutely positioned, only those in view rendered).
  custom(
    page('react-window', 'react-window', 'open-last-invoice'),
    'virtual-list',
    'open the last invoice, #10000 (a list of 10,000 that renders only the rows in view)',
    [
      {
        act: 'reveal',
        target: { role: 'button', name: 'Open invoice #10000' },
        // The list itself (the box that scrolls), as a person clicks into it before pressing End.
        within: { role: 'list' },
        key: 'End',
        presses: 3,
      },
      { act: 'click', target: { role: 'button', name: 'Open invoice #10000' } },
    ],
    `${state('opened')} === 10000`,
    state('opened'),
  ),
  custom(
    page('react-window', 'react-window-messages', 'reply-last-message'),
    'virtual-list',
    'reply to the last message, #5000 (a list of 5,000 of different heights, measured as they render)',
    [
      {
        act: 'reveal',
        target: { role: 'button', name: 'Reply to message #5000' },
        within: { role: 'list' },
        key: 'End',
        presses: 3,
      },
      { act: 'click', target: { role: 'button', name: 'Reply to message #5000' } },
    ],
    `${state('replyTo')} === 5000`,
    state('replyTo'),
  ),
];
