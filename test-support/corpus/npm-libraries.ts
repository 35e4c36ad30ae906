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
];
